/// The few commands the gateway's stores use beyond scripts, for the response cache: bytes in,
/// bytes out, on the loop thread. Each returns the failure at once, without calling `handler`,
/// when the store is down or not connected (see `send`).
extension RedisClient {
    /// `GET key`: the value, or nil when the key does not exist.
    public func get(_ key: [UInt8], handler: @escaping (Result<[UInt8]?, RedisFailure>) -> Void) -> RedisFailure? {
        send([Array("GET".utf8), key], op: "get") { result in
            handler(result.flatMap { reply in
                switch reply {
                case .bulk(let bytes): return .success(bytes)
                case .null: return .success(nil)
                default: return .failure(.connectionLost("unexpected reply to GET"))
                }
            })
        }
    }

    /// `SET key value PX ttl`: stored for `ttlMillis` milliseconds (at least 1).
    public func set(_ key: [UInt8], _ value: [UInt8], ttlMillis: Int,
                    handler: @escaping (Result<Void, RedisFailure>) -> Void) -> RedisFailure? {
        send([Array("SET".utf8), key, value, Array("PX".utf8), Array(String(max(1, ttlMillis)).utf8)], op: "set") { result in
            handler(result.flatMap { $0.isError ? .failure(.connectionLost("SET refused")) : .success(()) })
        }
    }

    /// `DEL key…`: how many of the keys existed.
    public func delete(_ keys: [[UInt8]], handler: @escaping (Result<Int, RedisFailure>) -> Void) -> RedisFailure? {
        send([Array("DEL".utf8)] + keys, op: "del") { result in
            handler(result.flatMap { reply in
                if case .integer(let count) = reply { return .success(Int(count)) }
                return .failure(.connectionLost("unexpected reply to DEL"))
            })
        }
    }
}
