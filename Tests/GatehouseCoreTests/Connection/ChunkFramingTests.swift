import GatehouseHTTP
import GatehouseIO
import Testing
@testable import GatehouseCore

/// `ByteBuffer.appendChunk(_:)`, the one writer of chunked framing (re-chunked request bodies,
/// gzip output): what it writes decodes back to the same bytes.
@Suite struct ChunkFramingTests {
    @Test(arguments: [[1], [26], [4096], [5, 1, 300], [0, 7]])
    func chunksDecodeBack(_ sizes: [Int]) {
        var wire = ByteBuffer(capacity: 0)
        var sent: [UInt8] = []
        for (index, size) in sizes.enumerated() {
            let piece = [UInt8](repeating: UInt8(ascii: "a") + UInt8(index), count: size)
            piece.withUnsafeBytes { wire.appendChunk($0) }
            sent += piece
        }
        wire.append(ChunkedEncoder.lastChunk)
        var decoder = ChunkedDecoder()
        var received: [UInt8] = []
        var offset = 0
        let bytes = Array(wire.readable)
        decoding: while offset < bytes.count {
            let step = bytes[offset...].withUnsafeBytes { decoder.decode($0) }
            switch step {
            case .data(let range, let consumed):
                received += bytes[(offset + range.lowerBound)..<(offset + range.upperBound)]
                offset += consumed
            case .needMore(let consumed):
                offset += consumed
            case .end(let consumed):
                offset += consumed
                break decoding
            case .invalid:
                Issue.record("invalid chunked framing")
                return
            }
        }
        #expect(received == sent)
        #expect(offset == bytes.count)
    }
}
