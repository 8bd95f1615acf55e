/// Connection buffers of one worker that are not in use. Idle keep-alive connections hand
/// their buffers back here and busy ones take them again, so an idle connection holds no buffer
/// memory and a busy one costs no malloc per request. Used on its worker's thread only.
public final class BufferPool {
    public static let bufferSize = 4096

    private var free: [UnsafeMutableRawPointer] = []
    private let limit: Int

    /// Keeps at most `limit` spare buffers; the rest go back to the allocator.
    public init(limit: Int) {
        self.limit = limit
        free.reserveCapacity(limit)
    }

    deinit {
        for storage in free { storage.deallocate() }
    }

    /// Gives `buffer` a pooled storage when it has none.
    @inline(__always)
    public func fill(_ buffer: inout ByteBuffer) {
        guard buffer.capacity == 0 else { return }
        buffer.adopt(free.popLast() ?? .allocate(byteCount: Self.bufferSize, alignment: 16), capacity: Self.bufferSize)
    }

    /// Takes back an empty buffer's storage (grown ones are freed).
    @inline(__always)
    public func recycle(_ buffer: inout ByteBuffer) {
        guard let (storage, capacity) = buffer.detachStorage() else { return }
        if capacity == Self.bufferSize && free.count < limit {
            free.append(storage)
        } else {
            storage.deallocate()
        }
    }
}
