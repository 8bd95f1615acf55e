import CLinux
import Glibc

/// A growable byte buffer with a read and a write index, owned by one connection. Bytes are read
/// from a socket into its free tail and consumed from its head; consumed space is reclaimed by
/// moving the unread bytes to the front when more room is needed.
///
/// The calls every request makes many times (appends, the tail, consuming) are `@inlinable`, so
/// the modules that write heads inline them instead of calling across the module boundary; the
/// stored state they touch is `@usableFromInline` for that, and read-only to everyone else.
public struct ByteBuffer: ~Copyable {
    @usableFromInline var storage: UnsafeMutableRawPointer
    @usableFromInline var storageCapacity: Int
    @usableFromInline var readOffset = 0
    @usableFromInline var writeOffset = 0

    @inlinable public var base: UnsafeMutableRawPointer { storage }
    @inlinable public var capacity: Int { storageCapacity }
    @inlinable public var readIndex: Int { readOffset }
    @inlinable public var writeIndex: Int { writeOffset }

    /// Storage of every empty buffer: never written to, never freed (a C array, so reading its
    /// address costs no lazy initialization).
    private static var noStorage: UnsafeMutableRawPointer { gh_no_storage() }

    /// `capacity` 0 allocates nothing until the first write.
    public init(capacity: Int) {
        storageCapacity = max(capacity, 0)
        storage = capacity > 0 ? .allocate(byteCount: capacity, alignment: 16) : Self.noStorage
    }

    deinit {
        if storageCapacity > 0 { storage.deallocate() }
    }

    @inlinable public var readableCount: Int { writeOffset - readOffset }
    @inlinable public var isEmpty: Bool { writeOffset == readOffset }
    @inlinable public var readable: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage + readOffset, count: writeOffset - readOffset)
    }

    /// Marks `count` readable bytes as used.
    @inlinable @inline(__always)
    public mutating func consume(_ count: Int) {
        readOffset += count
        if readOffset == writeOffset {
            readOffset = 0
            writeOffset = 0
        }
    }

    public mutating func clear() {
        readOffset = 0
        writeOffset = 0
    }

    /// Makes room for at least `count` more bytes at the tail, compacting or growing. The check
    /// is inlined into every append; the work, rarely needed, is not.
    @inlinable @inline(__always)
    public mutating func reserveTail(_ count: Int) {
        if storageCapacity - writeOffset < count { makeRoom(count) }
    }

    @usableFromInline @inline(never)
    mutating func makeRoom(_ count: Int) {
        let unread = writeOffset - readOffset
        if readOffset > 0 && storageCapacity - unread >= count {
            memmove(storage, storage + readOffset, unread)
        } else {
            var newCapacity = max(storageCapacity * 2, 4096)
            while newCapacity - unread < count { newCapacity *= 2 }
            let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
            grown.copyMemory(from: storage + readOffset, byteCount: unread)
            if storageCapacity > 0 { storage.deallocate() }
            storage = grown
            storageCapacity = newCapacity
        }
        readOffset = 0
        writeOffset = unread
    }

    @inlinable public var tailSpace: Int { storageCapacity - writeOffset }
    @inlinable public var tail: UnsafeMutableRawPointer { storage + writeOffset }

    /// Records that `count` bytes were written into the tail.
    @inlinable @inline(__always)
    public mutating func commit(_ count: Int) { writeOffset += count }

    // MARK: - Appending

    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        reserveTail(bytes.count)
        (storage + writeOffset).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        writeOffset += bytes.count
    }

    @inlinable @inline(__always)
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    @inlinable @inline(__always)
    public mutating func append(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { append($0) }
    }

    @inlinable @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inlinable @inline(__always)
    public mutating func append(byte: UInt8) {
        reserveTail(1)
        storage.storeBytes(of: byte, toByteOffset: writeOffset, as: UInt8.self)
        writeOffset += 1
    }

    @inlinable
    public mutating func append(string: String) {
        // A native string's bytes are read in place (`withUTF8` would need a mutable copy, and
        // with it a retain and a release on every call).
        let appended: Void? = string.utf8.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        if appended == nil {
            var copy = string
            copy.withUTF8 { append(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Appends a non-negative integer in decimal (a negative one as 0), written straight into
    /// the tail: lengths, ages and statuses are short, so the digit count comes from a few
    /// comparisons and each digit from one division by ten.
    @inlinable
    public mutating func append(decimal value: Int) {
        var rest = UInt64(max(value, 0))
        let digits = Self.decimalDigitCount(rest)
        reserveTail(digits)
        var at = storage + writeOffset + digits
        repeat {
            at -= 1
            at.storeBytes(of: UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0"), as: UInt8.self)
            rest /= 10
        } while rest > 0
        writeOffset += digits
    }

    @inlinable
    static func decimalDigitCount(_ value: UInt64) -> Int {
        if value < 10 { return 1 }
        if value < 100 { return 2 }
        if value < 1000 { return 3 }
        if value < 10000 { return 4 }
        var count = 5
        var limit: UInt64 = 100_000
        while count < 20 && value >= limit {
            count += 1
            limit = limit &* 10
        }
        return count
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
        guard isEmpty, storageCapacity > 0 else { return }
        storage.deallocate()
        storageCapacity = 0
        storage = Self.noStorage
        readOffset = 0
        writeOffset = 0
    }

    // MARK: - Pooled storage

    /// Takes `memory` (of `capacity` bytes) as this empty, storage-less buffer's memory.
    public mutating func adopt(_ memory: UnsafeMutableRawPointer, capacity: Int) {
        precondition(storageCapacity == 0, "adopting storage into a buffer that has some")
        storage = memory
        storageCapacity = capacity
        readOffset = 0
        writeOffset = 0
    }

    /// Hands the memory of an empty buffer to the caller (for a pool); nil when the buffer is not
    /// empty or has none.
    public mutating func detachStorage() -> (storage: UnsafeMutableRawPointer, capacity: Int)? {
        guard isEmpty, storageCapacity > 0 else { return nil }
        let detached = (storage, storageCapacity)
        storage = Self.noStorage
        storageCapacity = 0
        readOffset = 0
        writeOffset = 0
        return detached
    }
}
