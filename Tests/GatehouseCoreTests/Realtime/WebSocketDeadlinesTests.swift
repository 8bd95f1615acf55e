import Testing
@testable import GatehouseCore

/// Which tunnel timer fires, on a manual clock (seconds for readability).
@Suite struct WebSocketDeadlinesTests {
    static let second: UInt64 = 1_000_000_000

    static func deadlines(expiresAt: UInt64 = 0) -> WebSocketDeadlines {
        WebSocketDeadlines(now: 0, idleNanos: 60 * second, lifetimeNanos: 3600 * second, expiresAt: expiresAt)
    }

    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let deadlines: WebSocketDeadlines
        let now: UInt64
        let expired: WebSocketDeadlines.Expiry?
        let next: UInt64
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "nothing due", deadlines: deadlines(), now: 59 * second, expired: nil, next: 60 * second),
        Row(name: "idle_timeout: 1001", deadlines: deadlines(), now: 60 * second, expired: .idle, next: 60 * second),
        Row(name: "token exp + leeway: 4403, before idle", deadlines: deadlines(expiresAt: 30 * second), now: 30 * second,
            expired: .credentials, next: 30 * second),
        Row(name: "the token wins when both are due", deadlines: deadlines(expiresAt: 60 * second), now: 60 * second,
            expired: .credentials, next: 60 * second),
        Row(name: "max_lifetime even when busy", deadlines: {
            var busy = deadlines()
            busy.idle = 4000 * second
            return busy
        }(), now: 3600 * second, expired: .lifetime, next: 3600 * second),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) {
        #expect(row.deadlines.expired(at: row.now) == row.expired)
        #expect(row.deadlines.next == row.next)
    }

    @Test func framesMoveTheIdleDeadlineOn() {
        var moving = Self.deadlines()
        moving.activity(now: 50 * Self.second)
        #expect(moving.expired(at: 60 * Self.second) == nil)
        #expect(moving.next == 110 * Self.second)
    }

    @Test func acceptAnswersTheRFCExample() {
        // RFC 6455 §1.3.
        #expect(WebSocketAccept.value(forKey: Array("dGhlIHNhbXBsZSBub25jZQ==".utf8)) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(WebSocketAccept.matches(Array("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".utf8), key: Array("dGhlIHNhbXBsZSBub25jZQ==".utf8)))
        #expect(!WebSocketAccept.matches(Array("s3pPLMBiTxaQ9kYGzzhZRbK+xOX=".utf8), key: Array("dGhlIHNhbXBsZSBub25jZQ==".utf8)))
    }
}
