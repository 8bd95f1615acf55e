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

    /// Every value up to 100,000, each power of ten and the one before it, the largest Int, and
    /// a negative one (written as 0), appended after other bytes so the tail position matters.
    @Test func appendsEveryDecimalAsItsDigits() {
        var values = Array(0...100_000)
        var power = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1]
        }
        values.append(Int.max)
        for value in values {
            var buffer = ByteBuffer(capacity: 0)
            buffer.append("x=")
            buffer.append(decimal: value)
            let written = String(decoding: Array(buffer.readable), as: UTF8.self)
            if written != "x=\(value)" { Issue.record("\(value) was written as \(written)") }
        }
        var buffer = ByteBuffer(capacity: 4)
        buffer.append(decimal: -5)
        #expect(Array(buffer.readable) == [UInt8(ascii: "0")])
    }

    @Test(arguments: [(0, "0"), (10, "a"), (255, "ff"), (65536, "10000")])
    func appendsHex(_ row: (Int, String)) {
        var buffer = ByteBuffer(capacity: 8)
        buffer.append(hex: row.0)
        #expect(String(decoding: Array(buffer.readable), as: UTF8.self) == row.1)
    }
}
