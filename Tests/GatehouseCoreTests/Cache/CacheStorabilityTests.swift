import GatehouseConfig
import Testing
@testable import GatehouseCore

/// Whether a response may be stored, and for how long (the route's max_age is 30 s).
struct CacheStorabilityTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var status = 200
        var setsCookie = false
        var cacheControl: String?
        var scope = RouteCacheConfig.Scope.public
        var expected: CacheStorability.Verdict
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "200 plain", expected: .store(maxAgeSeconds: 30)),
        Row(name: "404", status: 404, expected: .skip),
        Row(name: "500", status: 500, expected: .skip),
        Row(name: "204", status: 204, expected: .skip),
        Row(name: "Set-Cookie", setsCookie: true, expected: .skip),
        Row(name: "upstream no-store", cacheControl: "no-store", expected: .skip),
        Row(name: "private on a public scope", cacheControl: "private", expected: .skip),
        Row(name: "private on a subject scope", cacheControl: "private", scope: .subject, expected: .store(maxAgeSeconds: 30)),
        Row(name: "shorter max-age wins", cacheControl: "max-age=5", expected: .store(maxAgeSeconds: 5)),
        Row(name: "longer max-age does not", cacheControl: "max-age=600", expected: .store(maxAgeSeconds: 30)),
        Row(name: "s-maxage before max-age", cacheControl: "max-age=5, s-maxage=10", expected: .store(maxAgeSeconds: 10)),
        Row(name: "max-age=0 stores nothing", cacheControl: "max-age=0", expected: .skip),
    ]

    @Test(arguments: rows)
    func head(_ row: Row) {
        let head = CacheStorability.Head(status: row.status, setsCookie: row.setsCookie,
                                         cacheControl: row.cacheControl.map { Array($0.utf8)[...] })
        #expect(CacheStorability.judge(head, scope: row.scope, maxAgeSeconds: 30) == row.expected)
    }

    static let bodies: [(String, Bool)] = [
        (#"{"data":{"a":1}}"#, true),
        (#"{"errors":[{"message":"x"}],"data":null}"#, false),
        (#"{"data":{"errors":1}}"#, true),
        ("not json", false),
        (#"[{"data":1}]"#, false),
    ]

    @Test(arguments: bodies)
    func body(_ text: String, _ stored: Bool) {
        #expect(CacheStorability.acceptsBody(Array(text.utf8), maxEntrySize: 1024) == stored)
    }

    @Test func bodyOverMaxEntrySizeIsNotStored() {
        #expect(!CacheStorability.acceptsBody(Array(#"{"data":"0123456789"}"#.utf8), maxEntrySize: 10))
    }

    @Test func ifNoneMatchRows() {
        let etag = Array("\"abc\"".utf8)[...]
        #expect(Exchange.matches(ifNoneMatch: Array("\"abc\"".utf8)[...], etag: etag))
        #expect(Exchange.matches(ifNoneMatch: Array("W/\"abc\"".utf8)[...], etag: etag))
        #expect(Exchange.matches(ifNoneMatch: Array("\"x\", \"abc\"".utf8)[...], etag: etag))
        #expect(Exchange.matches(ifNoneMatch: Array("*".utf8)[...], etag: etag))
        #expect(!Exchange.matches(ifNoneMatch: Array("\"abd\"".utf8)[...], etag: etag))
        #expect(!Exchange.matches(ifNoneMatch: nil, etag: etag))
    }
}
