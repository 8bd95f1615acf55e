import Testing
@testable import GatehouseIO

struct ByteBufferTests {
    @Test func appendsConsumesAndCompacts() {
        var buffer = ByteBuffer(capacity: 64)
        buffer.append(Array(repeating: UInt8(ascii: "a"), count: 60))
        buffer.consume(50)
        buffer.append(Array(repeating: UInt8(ascii: "b"), count: 40))  // compacts instead of growing
        #expect(buffer.capacity == 64)
        #expect(buffer.readableCount == 50)
        #expect(Array(buffer.readable.prefix(10)) == Array(repeating: UInt8(ascii: "a"), count: 10))
        buffer.append(Array(repeating: UInt8(ascii: "c"), count: 100))  // grows
        #expect(buffer.readableCount == 150)
        #expect(buffer.readable.last == UInt8(ascii: "c"))
    }

    @Test(arguments: [(0, "0"), (7, "7"), (10, "10"), (1234567890, "1234567890")])
    func appendsDecimal(_ row: (Int, String)) {
        var buffer = ByteBuffer(capacity: 8)
        buffer.append(decimal: row.0)
        #expect(String(decoding: Array(buffer.readable), as: UTF8.self) == row.1)
    }

    @Test(arguments: [(0, "0"), (10, "a"), (255, "ff"), (65536, "10000")])
    func appendsHex(_ row: (Int, String)) {
        var buffer = ByteBuffer(capacity: 8)
        buffer.append(hex: row.0)
        #expect(String(decoding: Array(buffer.readable), as: UTF8.self) == row.1)
    }
}
