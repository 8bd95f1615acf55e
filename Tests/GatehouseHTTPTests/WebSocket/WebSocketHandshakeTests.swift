import Foundation
import Testing
@testable import GatehouseHTTP

/// The opening handshake (RFC 6455 §4.1) as the gateway checks it on `websocket` routes.
@Suite struct WebSocketHandshakeTests {
    static let good = "GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n"
        + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"

    static func request(_ text: String) -> WebSocketHandshake.Request? {
        var scanned = 0
        let result = bytes(text + "\r\n").withUnsafeBytes { RequestHeadParser(limits: HTTPLimits()).parse($0, scanned: &scanned) }
        guard case .complete(let head, _) = result else { return nil }
        return WebSocketHandshake.request(head)
    }

    @Test(arguments: [
        (good, WebSocketHandshake.Request.upgrade(key: bytes("dGhlIHNhbXBsZSBub25jZQ=="), offeredProtocols: [])),
        (good + "Sec-WebSocket-Protocol: graphql-ws, graphql-transport-ws\r\n",
         .upgrade(key: bytes("dGhlIHNhbXBsZSBub25jZQ=="), offeredProtocols: ["graphql-ws", "graphql-transport-ws"])),
        ("GET /ws HTTP/1.1\r\nHost: a\r\n", .notUpgrade),
        ("GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n", .notUpgrade),
    ])
    func accepted(_ text: String, _ expected: WebSocketHandshake.Request) {
        #expect(Self.request(text) == expected)
    }

    @Test(arguments: [
        good.replacingOccurrences(of: "GET", with: "POST") + "Content-Length: 0\r\n",
        good.replacingOccurrences(of: "Connection: keep-alive, Upgrade", with: "Connection: keep-alive"),
        good.replacingOccurrences(of: "Version: 13", with: "Version: 8"),
        good.replacingOccurrences(of: "dGhlIHNhbXBsZSBub25jZQ==", with: "short=="),
        good.replacingOccurrences(of: "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", with: ""),
    ])
    func refused(_ text: String) {
        guard case .invalid = Self.request(text) else {
            Issue.record("expected a refusal, got \(String(describing: Self.request(text)))")
            return
        }
    }

    @Test func offeredSubprotocolsFollowTheConfiguredOrder() {
        let configured = ["graphql-transport-ws", "graphql-ws"]
        #expect(WebSocketHandshake.negotiate(offered: ["graphql-ws", "graphql-transport-ws"], configured: configured) == configured)
        #expect(WebSocketHandshake.negotiate(offered: ["graphql-ws", "chat"], configured: configured) == ["graphql-ws"])
        #expect(WebSocketHandshake.negotiate(offered: [], configured: configured).isEmpty)
    }
}
