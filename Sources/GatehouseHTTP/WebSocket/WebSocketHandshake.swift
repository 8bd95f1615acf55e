/// The opening handshake as a relay sees it (RFC 6455 §4): whether a request asks for an
/// upgrade, whether it asks correctly, and which subprotocols to offer the upstream.
public enum WebSocketHandshake {
    /// RFC 6455 §4.1: the only version this protocol defines.
    public static let version = Array("13".utf8)
    /// A key is 16 random bytes, base64: 24 characters ending in `==`.
    static let keyLength = 24

    public enum Request: Equatable, Sendable {
        /// Not an upgrade request: `Upgrade` is dropped as hop-by-hop.
        case notUpgrade
        case upgrade(key: [UInt8], offeredProtocols: [String])
        case invalid(String)
    }

    public static func request(_ head: RequestHead) -> Request {
        guard let upgrade = head.headerValue(named: HeaderNames.upgrade),
              listContains(head.bytes[upgrade], "websocket") else { return .notUpgrade }
        guard head.methodKind == .get, head.version == .http11 else {
            return .invalid("A WebSocket handshake must be an HTTP/1.1 GET.")
        }
        guard head.connectionOptions.contains(where: { ascii(head.bytes[$0]) == "upgrade" }) else {
            return .invalid("A WebSocket handshake must carry Connection: Upgrade.")
        }
        guard let versionRange = head.headerValue(named: "sec-websocket-version"),
              Array(trimmed(head.bytes[versionRange])) == version else {
            return .invalid("Only WebSocket version 13 is supported.")
        }
        guard let keyRange = head.headerValue(named: "sec-websocket-key") else {
            return .invalid("The WebSocket handshake has no Sec-WebSocket-Key.")
        }
        let key = Array(trimmed(head.bytes[keyRange]))
        guard key.count == keyLength, key.suffix(2) == [UInt8(ascii: "="), UInt8(ascii: "=")],
              key.dropLast(2).allSatisfy(isBase64) else {
            return .invalid("The Sec-WebSocket-Key is not 16 bytes of base64.")
        }
        var offered: [String] = []
        for field in head.headers where HeaderNames.asciiCaseInsensitiveEquals(head.bytes[field.name], "sec-websocket-protocol") {
            for item in head.bytes[field.value].split(separator: UInt8(ascii: ",")) {
                let name = String(decoding: trimmed(item), as: UTF8.self)
                if !name.isEmpty { offered.append(name) }
            }
        }
        return .upgrade(key: key, offeredProtocols: offered)
    }

    /// The subprotocols to offer the upstream: the configured ones the client also offered, in
    /// the configured order. A client that offered none gets none (it could not accept one).
    public static func negotiate(offered: [String], configured: [String]) -> [String] {
        configured.filter { offered.contains($0) }
    }

    // MARK: - Helpers

    public static func listContains(_ value: ArraySlice<UInt8>, _ token: String) -> Bool {
        value.split(separator: UInt8(ascii: ",")).contains { ascii(trimmed($0)) == token }
    }

    static func ascii(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes.map(ASCII.lowercased), as: UTF8.self)
    }

    public static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return slice
    }

    static func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"): return true
        default: return false
        }
    }
}
