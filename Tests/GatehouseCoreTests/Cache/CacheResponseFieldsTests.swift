import GatehouseHTTP
import Testing
@testable import GatehouseCore

/// The cache's one pass over an upstream response head: what decides storability, and the
/// lines a hit repeats (the gateway's own framing, validators, freshness, request id, cookies
/// and hop-by-hop fields are never among them).
struct CacheResponseFieldsTests {
    static func head(_ lines: [String]) -> ResponseHead {
        let raw = Array(("HTTP/1.1 200 OK\r\n" + lines.map { $0 + "\r\n" }.joined() + "\r\n").utf8)
        var scanned = 0
        let result = raw.withUnsafeBytes { ResponseHeadParser().parse($0, requestMethod: .get, scanned: &scanned) }
        guard case .complete(let head, _) = result else { fatalError("not a head: \(result)") }
        return head
    }

    static func block(_ head: ResponseHead) -> String {
        String(decoding: CacheResponseFields(head).headerBlock(of: head), as: UTF8.self)
    }

    @Test func keptLinesInTheirOrder() {
        let head = Self.head(["Content-Type: application/json", "Content-Length: 2", "ETag: \"x\"", "Date: now",
                              "Age: 3", "Expires: 0", "X-Request-Id: up", "Content-Encoding: gzip",
                              "Connection: keep-alive, X-Hop", "Keep-Alive: timeout=5", "X-Hop: 1", "Proxy-Foo: 1",
                              "Upgrade: h2c", "Trailer: x", "TE: trailers", "Vary: Accept", "X-Custom: kept"])
        let fields = CacheResponseFields(head)
        #expect(Self.block(head) == "Content-Type: application/json\r\nVary: Accept\r\nX-Custom: kept\r\n")
        #expect(!fields.setsCookie)
        #expect(fields.cacheControlValue(of: head) == nil)
    }

    /// Every `Cache-Control` line counts: a `no-store` in a second line is as binding as in the first.
    @Test func cookiesAndEveryCacheControlLineDecideButAreNotKept() {
        let head = Self.head(["Set-Cookie: a=1", "Cache-Control: max-age=5", "cache-control: no-store", "X-A: 1"])
        let fields = CacheResponseFields(head)
        #expect(fields.setsCookie)
        #expect(fields.cacheControlValue(of: head).map { String(decoding: $0, as: UTF8.self) } == "max-age=5, no-store")
        #expect(Self.block(head) == "X-A: 1\r\n")
    }

    @Test func oneCacheControlLineIsReadAsItIs() {
        let head = Self.head(["Cache-Control: public, max-age=5"])
        #expect(CacheResponseFields(head).cacheControlValue(of: head).map { String(decoding: $0, as: UTF8.self) }
                == "public, max-age=5")
    }

    /// A hit answers with the gateway's own validator (its ETag); the upstream's date validator
    /// would describe another representation.
    @Test func lastModifiedIsNotKept() {
        #expect(Self.block(Self.head(["Last-Modified: Tue, 01 Dec 2026 10:00:00 GMT", "X-A: 1"])) == "X-A: 1\r\n")
    }

    @Test func nothingKeptIsAnEmptyBlock() {
        #expect(Self.block(Self.head(["Content-Length: 0", "Date: now"])).isEmpty)
    }

    /// Past the 64 fields kept as bits, each field is read again when the block is written.
    @Test func manyFieldsAreAllRead() {
        var lines = (0..<70).map { "X-F\($0): \($0)" }
        lines.insert("Connection: X-F66", at: 0)
        lines.append("Date: later")
        let expected = (0..<70).filter { $0 != 66 }.map { "X-F\($0): \($0)\r\n" }.joined()
        #expect(Self.block(Self.head(lines)) == expected)
    }

    /// Lines written some other way (no space after the colon, spaces or a tab around the value,
    /// an empty value) are kept in the one form, next to lines copied whole.
    @Test func linesAreKeptInOneForm() {
        let head = Self.head(["X-Plain: a b", "X-Tight:c", "X-Loose:   d  ", "X-Tab:\te\t", "X-Empty:", "X-Blank: ",
                              "X-Last: z"])
        #expect(Self.block(head) == "X-Plain: a b\r\nX-Tight: c\r\nX-Loose: d\r\nX-Tab: e\r\nX-Empty: \r\nX-Blank: \r\nX-Last: z\r\n")
    }
}
