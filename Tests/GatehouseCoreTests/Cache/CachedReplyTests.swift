import GatehouseIO
import Testing
@testable import GatehouseCore

/// The `Cache-Status` value of an answer from the cache (RFC 9211), on a manual clock.
struct CachedReplyTests {
    static func status(_ kind: CachedReply.Kind, at seconds: Double) -> String {
        let entry = CacheLRUTests.entry("s", maxAge: 10, revalidate: 30)  // stored at 0, fresh for 10 s
        var out = ByteBuffer(capacity: 64)
        CachedReply(entry: entry, kind: kind).writeCacheStatus(into: &out, now: UInt64(seconds * 1e9))
        return String(decoding: out.readable, as: UTF8.self)
    }

    /// `ttl` counts down through 0 and goes negative once the entry is stale.
    @Test(arguments: [(2.0, "8"), (9.5, "0"), (10.0, "0"), (10.2, "-1"), (22.0, "-12")] as [(Double, String)])
    func ttlSaysHowLongTheEntryStaysFresh(_ seconds: Double, _ ttl: String) {
        #expect(Self.status(.hit, at: seconds) == "gatehouse; hit; ttl=\(ttl)")
        #expect(Self.status(.staleWhileRevalidate, at: seconds) == "gatehouse; hit; ttl=\(ttl)")
    }

    @Test func collapsedAndStaleOnErrorSayHowTheyCame() {
        #expect(Self.status(.collapsed, at: 1) == "gatehouse; fwd=miss; collapsed")
        #expect(Self.status(.staleOnError(status: 503), at: 20) == "gatehouse; fwd=stale; fwd-status=503")
    }
}
