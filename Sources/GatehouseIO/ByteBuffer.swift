import Glibc

/// A growable byte buffer with a read and a write index, owned by one connection. Bytes are read
/// from a socket into its free tail and consumed from its head; consumed space is reclaimed by
/// moving the unread bytes to the front when more room is needed.
public struct ByteBuffer: ~Copyable {
    public private(set) var base: UnsafeMutableRawPointer
    public private(set) var capacity: Int
    public private(set) var readIndex = 0
    public private(set) var writeIndex = 0

    /// Storage of every empty buffer: never written to, never freed.
    private nonisolated(unsafe) static let noStorage = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)

    /// `capacity` 0 allocates nothing until the first write.
    public init(capacity: Int) {
        self.capacity = max(capacity, 0)
        base = capacity > 0 ? .allocate(byteCount: capacity, alignment: 16) : Self.noStorage
    }

    deinit {
        if capacity > 0 { base.deallocate() }
    }

    @inline(__always) public var readableCount: Int { writeIndex - readIndex }
    @inline(__always) public var isEmpty: Bool { writeIndex == readIndex }
    @inline(__always) public var readable: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + readIndex, count: writeIndex - readIndex)
    }

    /// Marks `count` readable bytes as used.
    @inline(__always)
    public mutating func consume(_ count: Int) {
        readIndex += count
        if readIndex == writeIndex {
            readIndex = 0
            writeIndex = 0
        }
    }

    public mutating func clear() {
        readIndex = 0
        writeIndex = 0
    }

    /// Makes room for at least `count` more bytes at the tail, compacting or growing.
    public mutating func reserveTail(_ count: Int) {
        if capacity - writeIndex >= count { return }
        let unread = writeIndex - readIndex
        if readIndex > 0 && capacity - unread >= count {
            memmove(base, base + readIndex, unread)
        } else {
            var newCapacity = max(capacity * 2, 4096)
            while newCapacity - unread < count { newCapacity *= 2 }
            let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
            grown.copyMemory(from: base + readIndex, byteCount: unread)
            if capacity > 0 { base.deallocate() }
            base = grown
            capacity = newCapacity
        }
        readIndex = 0
        writeIndex = unread
    }

    @inline(__always) public var tailSpace: Int { capacity - writeIndex }
    @inline(__always) public var tail: UnsafeMutableRawPointer { base + writeIndex }

    /// Records that `count` bytes were written into the tail.
    @inline(__always)
    public mutating func commit(_ count: Int) { writeIndex += count }

    // MARK: - Appending

    @inline(__always)
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        reserveTail(bytes.count)
        (base + writeIndex).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        writeIndex += bytes.count
    }

    @inline(__always)
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    @inline(__always)
    public mutating func append(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { append($0) }
    }

    @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always)
    public mutating func append(byte: UInt8) {
        reserveTail(1)
        base.storeBytes(of: byte, toByteOffset: writeIndex, as: UInt8.self)
        writeIndex += 1
    }

    public mutating func append(string: String) {
        // A native string's bytes are read in place (`withUTF8` would need a mutable copy, and
        // with it a retain and a release on every call).
        let appended: Void? = string.utf8.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        if appended == nil {
            var copy = string
            copy.withUTF8 { append(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Appends a non-negative integer in decimal.
    public mutating func append(decimal value: Int) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch
        withUnsafeMutableBytes(of: &digits) { scratch in
            var n = UInt64(max(value, 0))
            var index = scratch.count
            repeat {
                index -= 1
                scratch[index] = UInt8(truncatingIfNeeded: n % 10) &+ 0x30
                n /= 10
            } while n > 0
            append(UnsafeRawBufferPointer(rebasing: scratch[index...]))
        }
    }

    /// Appends a non-negative integer in lowercase hexadecimal (chunk sizes).
    public mutating func append(hex value: Int) {
        var digits: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &digits) { scratch in
            var n = UInt64(max(value, 0))
            var index = scratch.count
            repeat {
                index -= 1
                let d = UInt8(truncatingIfNeeded: n & 0xF)
                scratch[index] = d < 10 ? d &+ 0x30 : d &+ 0x57
                n >>= 4
            } while n > 0
            append(UnsafeRawBufferPointer(rebasing: scratch[index...]))
        }
    }

    /// Gives the memory of an empty buffer back (idle connections stay small); the next write
    /// allocates again.
    public mutating func release() {
        guard isEmpty, capacity > 0 else { return }
        base.deallocate()
        capacity = 0
        base = Self.noStorage
        readIndex = 0
        writeIndex = 0
    }

    // MARK: - Pooled storage

    /// Takes `storage` (of `capacity` bytes) as this empty, storage-less buffer's memory.
    public mutating func adopt(_ storage: UnsafeMutableRawPointer, capacity: Int) {
        precondition(self.capacity == 0, "adopting storage into a buffer that has some")
        base = storage
        self.capacity = capacity
        readIndex = 0
        writeIndex = 0
    }

    /// Hands the memory of an empty buffer to the caller (for a pool); nil when the buffer is not
    /// empty or has none.
    public mutating func detachStorage() -> (storage: UnsafeMutableRawPointer, capacity: Int)? {
        guard isEmpty, capacity > 0 else { return nil }
        let detached = (base, capacity)
        base = Self.noStorage
        capacity = 0
        readIndex = 0
        writeIndex = 0
        return detached
    }
}
