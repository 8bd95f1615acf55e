import CHiredis

/// A reply from Redis, copied out of hiredis's reply object (which hiredis frees as soon as the
/// callback returns).
public indirect enum RedisReply: Sendable, Equatable {
    case status(String)
    /// An error reply (`NOSCRIPT …`, `WRONGPASS …`): Redis answered, the command failed.
    case error(String)
    case integer(Int64)
    case bulk([UInt8])
    case null
    case array([RedisReply])

    init(_ reply: UnsafePointer<redisReply>) {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STATUS: self = .status(Self.text(value))
        case REDIS_REPLY_ERROR: self = .error(Self.text(value))
        case REDIS_REPLY_INTEGER: self = .integer(Int64(value.integer))
        case REDIS_REPLY_STRING: self = .bulk(Self.bytes(value))
        case REDIS_REPLY_ARRAY:
            var items: [RedisReply] = []
            items.reserveCapacity(Int(value.elements))
            for index in 0..<Int(value.elements) {
                if let element = value.element[index] { items.append(RedisReply(element)) } else { items.append(.null) }
            }
            self = .array(items)
        default: self = .null
        }
    }

    public var isError: Bool {
        if case .error = self { return true }
        return false
    }

    private static func bytes(_ reply: redisReply) -> [UInt8] {
        guard let str = reply.str, reply.len > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: str, count: Int(reply.len)))
    }

    private static func text(_ reply: redisReply) -> String {
        String(decoding: bytes(reply), as: UTF8.self)
    }
}

/// Why a command got no reply.
public enum RedisFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store is marked down; it was not asked.
    case down
    /// No connection right now (reconnecting after a failure).
    case notConnected(String)
    /// No answer within the command timeout; the connection is treated as broken.
    case timeout
    /// The connection broke before the answer came.
    case connectionLost(String)

    public var description: String {
        switch self {
        case .down: return "store is down"
        case .notConnected(let reason): return "not connected (\(reason))"
        case .timeout: return "no answer within the timeout"
        case .connectionLost(let reason): return "connection lost (\(reason))"
        }
    }
}
