import Testing
@testable import GatehouseCore

/// The inflater's defences: a size cap that holds however well the data compresses, and clear
/// refusals of truncated, corrupt or foreign data.
struct GzipInflaterTests {
    /// 64 MiB of zeros, compressed chunk by chunk so the test never holds them.
    static let bomb: [UInt8] = {
        var encoder = GzipEncoder(level: 9)
        var output: [UInt8] = []
        let zeros = [UInt8](repeating: 0, count: 1 << 16)
        for _ in 0..<1_024 {
            zeros.withUnsafeBytes { encoder.compress($0, into: &output) }
        }
        encoder.finish(into: &output)
        return output
    }()

    @Test(arguments: [1 << 20, 1_000, 0])
    func bombStopsAtTheLimit(_ limit: Int) {
        #expect(Self.bomb.count < 200_000)
        var inflater = GzipInflater()
        var output: [UInt8] = []
        let result = Self.bomb.withUnsafeBytes { inflater.inflate($0, into: &output, limit: limit) }
        #expect(result == .overLimit)
        #expect(output.count == limit)
        let produced = inflater.producedCount  // #expect cannot take a non-copyable value
        #expect(produced == limit)
        #expect(output.capacity <= 2 * limit + 64 * 1024)
        // The outcome sticks.
        #expect(Self.bomb.withUnsafeBytes { inflater.inflate($0, into: &output, limit: limit) } == .overLimit)
        #expect(output.count == limit)
    }

    @Test func resetAfterTheLimitStartsAFreshCount() {
        var inflater = GzipInflater()
        var output: [UInt8] = []
        #expect(Self.bomb.withUnsafeBytes { inflater.inflate($0, into: &output, limit: 10) } == .overLimit)
        inflater.reset()
        output.removeAll()
        let small = GzipRoundTripTests.compress(Array("small".utf8), chunk: 5)
        #expect(small.withUnsafeBytes { inflater.inflate($0, into: &output, limit: 10) } == .finished)
        #expect(output == Array("small".utf8))
    }

    @Test func bodyOfExactlyTheLimitFits() {
        let input = GzipRoundTripTests.jsonLike(100_000)
        let compressed = GzipRoundTripTests.compress(input, chunk: 10_000)
        let (result, output) = GzipRoundTripTests.inflate(compressed, chunk: 333, limit: 100_000)
        #expect(result == .finished)
        #expect(output == input)
        #expect(GzipRoundTripTests.inflate(compressed, chunk: 333, limit: 99_999).0 == .overLimit)
    }

    @Test(arguments: [1, 10, 18, 100, 1_000])
    func truncatedBodyIsInvalid(_ keep: Int) {
        let compressed = GzipRoundTripTests.compress(GzipRoundTripTests.randomBytes(5_000, seed: 7), chunk: 5_000)
        let (result, _) = GzipRoundTripTests.inflate(Array(compressed.prefix(keep)), chunk: 64)
        #expect(result == .invalid("the compressed body is truncated"))
    }

    /// (bytes, what the message must start with)
    static let garbage: [([UInt8], String)] = [
        (Array("{\"plain\":\"json\"}".utf8), "invalid compressed body: "),
        ([0x1f, 0x8b, 0x09, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3], "invalid compressed body: unknown compression method"),
        ([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3] + [UInt8](repeating: 0xff, count: 40), "invalid compressed body: "),
    ]

    @Test(arguments: garbage)
    func garbageIsInvalid(_ row: ([UInt8], String)) {
        let (result, _) = GzipRoundTripTests.inflate(row.0, chunk: 1_000)
        guard case .invalid(let message) = result else {
            Issue.record("expected invalid, got \(result)")
            return
        }
        #expect(message.hasPrefix(row.1))
    }

    @Test func corruptChecksumIsInvalid() {
        var compressed = GzipRoundTripTests.compress(GzipRoundTripTests.jsonLike(2_000), chunk: 2_000)
        compressed[compressed.count - 6] ^= 0xff  // inside the CRC-32
        #expect(GzipRoundTripTests.inflate(compressed, chunk: 2_000).0 == .invalid("invalid compressed body: incorrect data check"))
    }

    @Test func bytesAfterTheEndAreInvalid() {
        let compressed = GzipRoundTripTests.compress(GzipRoundTripTests.jsonLike(2_000), chunk: 2_000)
        let expected = InflateResult.invalid("data after the end of the compressed body")
        #expect(GzipRoundTripTests.inflate(compressed + [0x00], chunk: 100_000).0 == expected)
        // The same when the stray bytes come in a later call.
        var inflater = GzipInflater()
        var output: [UInt8] = []
        #expect(compressed.withUnsafeBytes { inflater.inflate($0, into: &output, limit: 1 << 20) } == .finished)
        #expect([UInt8(1)].withUnsafeBytes { inflater.inflate($0, into: &output, limit: 1 << 20) } == expected)
    }

    @Test func zlibWrappedDataIsAcceptedToo() {
        // "hello" as a zlib stream (RFC 1950), as some servers send for Content-Encoding: deflate.
        let zlib: [UInt8] = [0x78, 0x9c, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0x06, 0x2c, 0x02, 0x15]
        let (result, output) = GzipRoundTripTests.inflate(zlib, chunk: 3)
        #expect(result == .finished)
        #expect(output == Array("hello".utf8))
    }
}
