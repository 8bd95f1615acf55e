import GatehouseIO
import Testing
@testable import GatehouseCore

/// Bodies stay in memory up to the limit, then move to an unlinked temporary file; either way
/// they come back byte for byte.
@Suite struct RequestBodyBufferTests {
    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) } }

    @Test(arguments: [(0, false), (100, false), (1024, false), (1025, true), (200_000, true)])
    func roundTrip(size: Int, spooled: Bool) throws {
        let buffer = RequestBodyBuffer(memoryLimit: 1024, directory: "/tmp")
        let body = Self.pattern(size)
        // Arrives in uneven pieces, as reads deliver it.
        var offset = 0
        var piece = 1
        while offset < body.count {
            let end = min(body.count, offset + piece)
            try body[offset..<end].withUnsafeBytes { try buffer.append($0) }
            offset = end
            piece = piece * 3 + 1
        }
        #expect(buffer.count == size)
        #expect(buffer.isSpooled == spooled)
        #expect(buffer.bytes() == body)
        // Read back in windows, as the upstream's buffer takes it.
        var out = ByteBuffer(capacity: 0)
        var read = 0
        while read < size { read += buffer.copy(from: read, limit: 4096, into: &out) }
        #expect(Array(out.readable) == body)
    }

    @Test func unusableDirectoryIsASpoolFailure() {
        let buffer = RequestBodyBuffer(memoryLimit: 4, directory: "/nonexistent/gatehouse")
        #expect(throws: RequestBodyBuffer.Failure.self) {
            try Self.pattern(10).withUnsafeBytes { try buffer.append($0) }
        }
    }
}
