import CZlib

/// Streaming gzip compression of a response body: feed chunks as they arrive from the upstream,
/// send what comes out, then `finish`. Never holds more than zlib's own window of the body.
///
/// The z_stream lives on the heap because zlib keeps a pointer back to it; the struct is
/// non-copyable because it owns that allocation and zlib's state.
public struct GzipEncoder: ~Copyable {
    private let stream: UnsafeMutablePointer<z_stream>
    public private(set) var isFinished = false

    /// `level` 0 (store) to 9 (smallest); 1 is the fast default for responses.
    public init(level: Int32) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // Window bits 15 + 16: a 32 KiB window with the gzip header and trailer.
        let code = gh_deflateInit2(stream, min(max(level, 0), 9), 15 + 16)
        // With a valid level and window deflateInit2 fails only when memory runs out.
        precondition(code == Z_OK, "deflateInit2 failed (\(code))")
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses `input`, appending whatever zlib emits to `output` (often nothing: deflate gathers
    /// input into blocks). `syncFlush` pushes everything given so far out to a byte boundary, so a
    /// streamed chunk reaches the client now, at a small cost in ratio.
    public mutating func compress(_ input: UnsafeRawBufferPointer, into output: inout [UInt8], syncFlush: Bool = false) {
        precondition(!isFinished, "GzipEncoder used after finish")
        if input.isEmpty && !syncFlush { return }
        var cursor = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
        var remaining = input.count
        repeat {
            let slice = min(remaining, ZlibOutput.maximumSlice)
            stream.pointee.next_in = UnsafeMutablePointer(mutating: cursor)
            stream.pointee.avail_in = UInt32(slice)
            let flush = slice == remaining && syncFlush ? Z_SYNC_FLUSH : Z_NO_FLUSH
            let room = min(max(slice / 2 + 256, 1024), 256 * 1024)
            drain(into: &output, room: room, flush: flush)
            cursor = cursor.map { $0 + slice }
            remaining -= slice
        } while remaining > 0
        stream.pointee.next_in = nil
    }

    /// Writes the rest of the compressed data and the gzip trailer (CRC and length).
    public mutating func finish(into output: inout [UInt8]) {
        guard !isFinished else { return }
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        drain(into: &output, room: 4096, flush: Z_FINISH)
        isFinished = true
    }

    /// Starts a new gzip stream with the same level, keeping zlib's allocations, so a worker can
    /// reuse one encoder for response after response.
    public mutating func reset() {
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        _ = deflateReset(stream)
        isFinished = false
    }

    /// Calls deflate until it has consumed the input and has nothing more to emit for `flush`
    /// (zlib's rule: repeat while it filled all the output space it was given).
    private func drain(into output: inout [UInt8], room: Int, flush: Int32) {
        var room = room
        while true {
            let (code, produced) = ZlibOutput.step(stream, appendingTo: &output, room: room) { deflate($0, flush) }
            // Z_BUF_ERROR only says no progress was possible, which ends the loop anyway.
            precondition(code != Z_STREAM_ERROR, "deflate state corrupted")
            if code == Z_STREAM_END || produced < room { return }
            room = min(room * 2, 256 * 1024)
        }
    }
}
