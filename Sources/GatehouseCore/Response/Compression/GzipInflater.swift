import CZlib

/// Bounded decompression of a gzip (or zlib) encoded upstream body that the gateway itself must
/// read. It never produces more than `limit` bytes in total, however small the input, so a
/// "zip bomb" costs at most `limit` bytes of memory.
///
/// The z_stream lives on the heap because zlib keeps a pointer back to it; the struct is
/// non-copyable because it owns that allocation and zlib's state.
public struct GzipInflater: ~Copyable {
    private let stream: UnsafeMutablePointer<z_stream>
    /// Bytes produced by all calls so far.
    public private(set) var producedCount = 0
    /// The sticky outcome once the body ended, went over the limit or turned out invalid.
    private var final: InflateResult?

    private static let chunk = 16 * 1024

    public init() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // Window bits 15 + 32: detect a gzip or a zlib header automatically.
        let code = gh_inflateInit2(stream, 15 + 32)
        // inflateInit2 with valid window bits fails only when memory runs out.
        precondition(code == Z_OK, "inflateInit2 failed (\(code))")
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates the next piece of the compressed body, appending to `output`, so that all calls
    /// together never produce more than `limit` bytes.
    public mutating func inflate(_ input: UnsafeRawBufferPointer, into output: inout [UInt8], limit: Int) -> InflateResult {
        if let final {
            if final == .finished && !input.isEmpty { return fail("data after the end of the compressed body") }
            return final
        }
        var cursor = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
        var remaining = input.count
        repeat {
            let slice = min(remaining, ZlibOutput.maximumSlice)
            stream.pointee.next_in = UnsafeMutablePointer(mutating: cursor)
            stream.pointee.avail_in = UInt32(slice)
            let result = drain(into: &output, limit: limit)
            let unread = Int(stream.pointee.avail_in)
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
            if result != .progress {
                if result == .finished && (unread > 0 || remaining > slice) {
                    return fail("data after the end of the compressed body")
                }
                return result
            }
            cursor = cursor.map { $0 + slice }
            remaining -= slice
        } while remaining > 0
        return .progress
    }

    /// Call when the input has ended: `.finished` when the compressed body was complete,
    /// `.invalid` when it was cut short.
    public mutating func finish() -> InflateResult {
        if let final { return final }
        return fail("the compressed body is truncated")
    }

    /// Starts over for a new compressed body, keeping zlib's allocations.
    public mutating func reset() {
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        _ = inflateReset(stream)
        producedCount = 0
        final = nil
    }

    // MARK: - Steps

    /// Inflates the current input slice until it is used up, the body ends, or the limit is passed.
    private mutating func drain(into output: inout [UInt8], limit: Int) -> InflateResult {
        while true {
            // One byte past the limit is room enough to learn that the body is too large.
            let room = min(Self.chunk, max(limit - producedCount, 0) + 1)
            let inputBefore = stream.pointee.avail_in
            let (code, produced) = ZlibOutput.step(stream, appendingTo: &output, room: room) { CZlib.inflate($0, Z_NO_FLUSH) }
            producedCount += produced
            if producedCount > limit {
                output.removeLast(producedCount - limit)
                producedCount = limit
                final = .overLimit
                return .overLimit
            }
            switch code {
            case Z_STREAM_END:
                final = .finished
                return .finished
            case Z_OK, Z_BUF_ERROR:
                // Done with this input once it is consumed and zlib had space left over.
                let inputLeft = stream.pointee.avail_in
                if inputLeft == 0 && produced < room { return .progress }
                // zlib promises progress while it has input and space; guard against a stall anyway.
                if inputLeft == inputBefore && produced == 0 {
                    return inputLeft == 0 ? .progress : fail("invalid compressed body: inflate made no progress")
                }
            case Z_NEED_DICT:
                return fail("the compressed body needs a preset dictionary")
            case Z_MEM_ERROR:
                return fail("out of memory while inflating")
            default:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "corrupt data (\(code))"
                return fail("invalid compressed body: \(reason)")
            }
        }
    }

    private mutating func fail(_ message: String) -> InflateResult {
        let result = InflateResult.invalid(message)
        final = result
        return result
    }
}
