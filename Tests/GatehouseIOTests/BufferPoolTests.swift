import Testing
@testable import GatehouseIO

/// Idle connections hand their buffers back; busy ones take them again without allocating.
struct BufferPoolTests {
    @Test func recycledStorageIsHandedOutAgain() {
        let pool = BufferPool(limit: 4)
        var buffer = ByteBuffer(capacity: 0)
        pool.fill(&buffer)
        #expect(buffer.capacity == BufferPool.bufferSize)
        let storage = buffer.base
        buffer.append(Array("hello".utf8))
        pool.recycle(&buffer)  // not empty: kept
        #expect(buffer.capacity == BufferPool.bufferSize)
        buffer.consume(5)
        pool.recycle(&buffer)
        #expect(buffer.capacity == 0)
        var other = ByteBuffer(capacity: 0)
        pool.fill(&other)
        #expect(other.base == storage)
    }

    @Test func grownBuffersAreNotPooled() {
        let pool = BufferPool(limit: 4)
        var buffer = ByteBuffer(capacity: 0)
        pool.fill(&buffer)
        buffer.append(Array(repeating: 1, count: BufferPool.bufferSize * 2))
        buffer.consume(buffer.readableCount)
        let grown = buffer.base
        pool.recycle(&buffer)
        var other = ByteBuffer(capacity: 0)
        pool.fill(&other)
        #expect(other.base != grown)
        #expect(other.capacity == BufferPool.bufferSize)
    }
}
