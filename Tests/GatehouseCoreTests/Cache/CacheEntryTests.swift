import GatehouseHTTP
import Testing
@testable import GatehouseCore

/// An entry keeps its header lines and body in one allocation, and its ETag once a reader made
/// it: made from a capture (the miss path) or from its parts (a Redis read, a background
/// refresh), it reads back the same.
struct CacheEntryTests {
    static let lines = "Content-Type: application/json\r\nX-A: 1\r\n"
    static let body = #"{"data":{"movies":[{"title":"Heat"}]}}"#

    static func captured(expectedLength: Int?, chunks: [String]) -> CacheCapture {
        let head = CacheResponseFieldsTests.head(["Content-Type: application/json", "Date: now", "X-A: 1"])
        var capture = CacheCapture(maxAgeSeconds: 30, fields: CacheResponseFields(head), of: head, limit: 1024,
                                   expectedLength: expectedLength)
        for chunk in chunks { Array(chunk.utf8).withUnsafeBytes { capture.append($0) } }
        return capture
    }

    static func entry(from capture: inout CacheCapture) -> CacheEntry {
        CacheEntry(key: CacheKey.named("e"), routeLabel: "/r", operation: "op", bytes: capture.takeEntryBytes(),
                   headerBlockCount: capture.headerBlockCount, isPublic: true, storedAt: 0,
                   maxAgeNanos: 1, revalidateNanos: 0, staleIfErrorNanos: 0)
    }

    static var bodyETag: [UInt8] { Array(("\"" + PersistedQueryHash.sha256Hex(body) + "\"").utf8) }

    @Test(arguments: [Optional(body.utf8.count), nil])
    func anEntryFromACaptureReadsBackItsParts(_ expectedLength: Int?) {
        var capture = Self.captured(expectedLength: expectedLength, chunks: [String(Self.body.prefix(9)), String(Self.body.dropFirst(9))])
        #expect(capture.withBody { Array($0) } == Array(Self.body.utf8))
        let entry = Self.entry(from: &capture)
        #expect(Array(entry.headerBlock) == Array(Self.lines.utf8))
        #expect(Array(entry.body) == Array(Self.body.utf8))
        #expect(entry.etag == Self.bodyETag)
        #expect(entry.byteCount == Self.lines.utf8.count + Self.body.utf8.count + CacheEntry.etagLength + 2 + 2
                + CacheEntry.overheadBytes)

        let fromParts = CacheEntry(key: CacheKey.named("e"), routeLabel: "/r", operation: "op",
                                   headerBlock: Array(Self.lines.utf8), body: Array(Self.body.utf8), isPublic: true,
                                   storedAt: 0, maxAgeNanos: 1, revalidateNanos: 0, staleIfErrorNanos: 0)
        #expect(fromParts.headerBlock == entry.headerBlock && fromParts.body == entry.body && fromParts.etag == entry.etag)
        // What a hit writes from: the same three parts, in place.
        entry.withParts { headerBlock, body, etag in
            #expect(Array(headerBlock) == Array(entry.headerBlock))
            #expect(Array(body) == Array(entry.body))
            #expect(Array(etag) == Array(entry.etag))
        }
    }

    /// The ETag is made by the first reader, not when the entry is stored; readers on several
    /// threads at once all get the same bytes, whichever of them published first.
    @Test func theETagIsMadeOnceForReadersAtOnce() async {
        for _ in 0..<20 {
            var capture = Self.captured(expectedLength: nil, chunks: [Self.body])
            let entry = Self.entry(from: &capture)
            let tags = await withTaskGroup(of: [UInt8].self) { group in
                for _ in 0..<8 { group.addTask { entry.etag } }
                return await group.reduce(into: [[UInt8]]()) { $0.append($1) }
            }
            #expect(tags.count == 8 && tags.allSatisfy { $0 == Self.bodyETag })
            entry.withParts { _, _, etag in #expect(Array(etag) == Self.bodyETag) }
        }
    }

    /// A store that kept the ETag (Redis) hands it back and it is used as given; one of another
    /// length is not an ETag this gateway made, and the body's own is made instead.
    @Test func aKeptETagIsUsedAsGiven() {
        let kept = Array(("\"" + String(repeating: "a", count: 64) + "\"").utf8)
        for (given, expected) in [(kept, kept), (Array("\"short\"".utf8), Self.bodyETag)] {
            let entry = CacheEntry(key: CacheKey.named("e"), routeLabel: "/r", operation: "op",
                                   headerBlock: Array(Self.lines.utf8), body: Array(Self.body.utf8), isPublic: true,
                                   storedAt: 0, maxAgeNanos: 1, revalidateNanos: 0, staleIfErrorNanos: 0, etag: given)
            #expect(entry.etag == expected)
        }
    }

    /// The capture reserves room for the body it was told of: one allocation, kept.
    @Test func aKnownLengthIsCapturedInPlace() {
        var capture = Self.captured(expectedLength: Self.body.utf8.count, chunks: [Self.body])
        let before = capture.withBody { $0.baseAddress }
        let entry = Self.entry(from: &capture)
        #expect(entry.body.withUnsafeBytes { $0.baseAddress } == before)
    }

    @Test func aBodyPastTheLimitIsDropped() {
        let head = CacheResponseFieldsTests.head(["X-A: 1"])
        var capture = CacheCapture(maxAgeSeconds: 30, fields: CacheResponseFields(head), of: head, limit: 4, expectedLength: nil)
        Array("12345".utf8).withUnsafeBytes { capture.append($0) }
        #expect(capture.overflowed && capture.bytes.isEmpty)
        let known = CacheCapture(maxAgeSeconds: 30, fields: CacheResponseFields(head), of: head, limit: 4, expectedLength: 5)
        #expect(known.overflowed)
    }
}
