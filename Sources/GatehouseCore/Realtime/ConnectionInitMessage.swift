import GatehouseGraphQL
import GatehouseHTTP

/// What the client's first message says, for `token_from: connection_init:FIELD`: it must be a
/// text `{"type":"connection_init","payload":{FIELD: token, …}}` — graphql-transport-ws and the
/// legacy graphql-ws protocol both open with that message. `FIELD` is matched as configured; the
/// value may carry a `Bearer ` prefix (any case), as an Authorization header would.
enum ConnectionInitMessage {
    enum Reading: Equatable {
        /// The token, without a `Bearer ` prefix.
        case token([UInt8])
        /// A `connection_init` without a non-empty string at `payload.FIELD`.
        case noToken
        /// Some other message came first (binary, not JSON, another type).
        case notConnectionInit
    }

    static let initType = "connection_init"
    static let bearerPrefix = "bearer "

    static func read(opcode: WebSocketOpcode, payload: [UInt8], field: String) -> Reading {
        guard opcode == .text, let message = try? JSONReader.parse(payload),
              message["type"]?.stringValue == initType else { return .notConnectionInit }
        guard let value = message["payload"]?[field]?.stringValue else { return .noToken }
        var token = Array(value.utf8)
        let prefix = bearerPrefix.utf8.count
        if token.count >= prefix, String(decoding: token.prefix(prefix), as: UTF8.self).lowercased() == bearerPrefix {
            token.removeFirst(prefix)
        }
        return token.isEmpty ? .noToken : .token(token)
    }
}
