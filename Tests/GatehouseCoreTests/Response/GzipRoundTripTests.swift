import Testing
@testable import GatehouseCore

/// Compress with GzipEncoder, inflate with GzipInflater: the bytes come back, whatever the chunking.
struct GzipRoundTripTests {
    static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    static func jsonLike(_ count: Int) -> [UInt8] {
        var text: [UInt8] = Array(#"{"data":{"movies":["#.utf8)
        var index = 0
        while text.count < count {
            text += Array(#"{"id":"\#(index)","title":"Movie number \#(index)","genre":"drama","rating":\#(index % 10)},"#.utf8)
            index += 1
        }
        return Array(text.prefix(count))
    }

    static func compress(_ input: [UInt8], level: Int32 = 1, chunk: Int, syncFlush: Bool = false) -> [UInt8] {
        var encoder = GzipEncoder(level: level)
        var output: [UInt8] = []
        var offset = 0
        repeat {
            let end = min(offset + chunk, input.count)
            input[offset..<end].withUnsafeBytes { encoder.compress($0, into: &output, syncFlush: syncFlush) }
            offset = end
        } while offset < input.count
        encoder.finish(into: &output)
        let finished = encoder.isFinished  // #expect cannot take a non-copyable value
        #expect(finished)
        return output
    }

    static func inflate(_ input: [UInt8], chunk: Int, limit: Int = 64 << 20) -> (InflateResult, [UInt8]) {
        var inflater = GzipInflater()
        var output: [UInt8] = []
        var offset = 0
        while offset < input.count {
            let end = min(offset + chunk, input.count)
            let result = input[offset..<end].withUnsafeBytes { inflater.inflate($0, into: &output, limit: limit) }
            offset = end
            if result != .progress && result != .finished { return (result, output) }
        }
        return (inflater.finish(), output)
    }

    // MARK: - Round trips

    /// (input size, encoder chunk, inflater chunk)
    static let sizes: [(Int, Int, Int)] = [
        (0, 1, 1), (1, 1, 1), (100, 7, 3), (1_000, 1_000, 1), (5_000, 1, 17), (70_000, 4_096, 65_536),
        (300_000, 65_536, 1_000), (1_000_000, 1_000_000, 1_000_000),
    ]

    @Test(arguments: sizes)
    func randomBytesSurvive(_ row: (Int, Int, Int)) {
        let input = Self.randomBytes(row.0, seed: UInt64(row.0) + 1)
        let compressed = Self.compress(input, chunk: row.1)
        let (result, output) = Self.inflate(compressed, chunk: row.2)
        #expect(result == .finished)
        #expect(output == input)
    }

    @Test(arguments: sizes)
    func jsonSurvivesAndShrinks(_ row: (Int, Int, Int)) {
        let input = Self.jsonLike(row.0)
        let compressed = Self.compress(input, chunk: row.1)
        let (result, output) = Self.inflate(compressed, chunk: row.2)
        #expect(result == .finished)
        #expect(output == input)
        if row.0 >= 5_000 { #expect(compressed.count * 4 < input.count) }
    }

    @Test(arguments: [0, 1, 6, 9] as [Int32])
    func everyLevelRoundTrips(_ level: Int32) {
        let input = Self.jsonLike(50_000)
        let (result, output) = Self.inflate(Self.compress(input, level: level, chunk: 8_192), chunk: 8_192)
        #expect(result == .finished)
        #expect(output == input)
    }

    // MARK: - Format and streaming

    @Test func outputIsGzipWithHeaderAndLengthTrailer() {
        let input = Self.jsonLike(12_345)
        let compressed = Self.compress(input, chunk: 1_000)
        #expect(Array(compressed.prefix(3)) == [0x1f, 0x8b, 0x08])  // magic, deflate
        let trailer = compressed.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        #expect(trailer == input.count)  // ISIZE, little-endian
    }

    @Test func syncFlushEmitsEveryChunkAtOnce() {
        var encoder = GzipEncoder(level: 1)
        var inflater = GzipInflater()
        var inflated: [UInt8] = []
        for part in 0..<5 {
            let chunk = Self.jsonLike(200 + part)
            var compressed: [UInt8] = []
            chunk.withUnsafeBytes { encoder.compress($0, into: &compressed, syncFlush: true) }
            #expect(compressed.isEmpty == false)
            let before = inflated.count
            let result = compressed.withUnsafeBytes { inflater.inflate($0, into: &inflated, limit: 1 << 20) }
            #expect(result == .progress)
            // Everything sent so far can be decoded already: the client sees the chunk now.
            #expect(Array(inflated[before...]) == chunk)
        }
        var tail: [UInt8] = []
        encoder.finish(into: &tail)
        #expect(tail.withUnsafeBytes { inflater.inflate($0, into: &inflated, limit: 1 << 20) } == .finished)
    }

    @Test func resetEncoderAndInflaterServeAnotherBody() {
        var encoder = GzipEncoder(level: 1)
        var inflater = GzipInflater()
        for body in [Self.jsonLike(3_000), Self.randomBytes(2_000, seed: 3), Self.jsonLike(10)] {
            var compressed: [UInt8] = []
            body.withUnsafeBytes { encoder.compress($0, into: &compressed) }
            encoder.finish(into: &compressed)
            var output: [UInt8] = []
            let result = compressed.withUnsafeBytes { inflater.inflate($0, into: &output, limit: 1 << 20) }
            #expect(result == .finished)
            #expect(output == body)
            encoder.reset()
            inflater.reset()
        }
    }

    @Test func finishTwiceAddsNothing() {
        var encoder = GzipEncoder(level: 1)
        var output: [UInt8] = []
        encoder.finish(into: &output)
        let count = output.count
        encoder.finish(into: &output)
        #expect(output.count == count)
        #expect(Self.inflate(output, chunk: 100) == (.finished, []))
    }
}
