import Testing
@testable import GatehouseCore

/// `server.min_body_rate`, one tick a second: bytes received per tick -> the tick that refuses.
@Suite struct BodyRateMeterTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let rate: Int
        let bytesPerTick: [Int]
        /// 1-based tick at which the body is too slow; nil: never.
        let refusedAt: Int?
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "silent client: refused once the grace and a full window have passed", rate: 1024,
            bytesPerTick: Array(repeating: 0, count: 8), refusedAt: 5),
        Row(name: "steady at the rate: never", rate: 1024, bytesPerTick: Array(repeating: 1024, count: 20), refusedAt: nil),
        Row(name: "a burst then silence: refused when the burst leaves the window", rate: 1024,
            bytesPerTick: [10_240] + Array(repeating: 0, count: 10), refusedAt: 6),
        Row(name: "just under the rate", rate: 1024, bytesPerTick: Array(repeating: 1000, count: 8), refusedAt: 5),
        Row(name: "fast start then a trickle", rate: 1024,
            bytesPerTick: [8192, 8192, 8192, 8192, 8192, 100, 100, 100, 100, 100, 100], refusedAt: 10),
        Row(name: "disabled", rate: 0, bytesPerTick: Array(repeating: 0, count: 20), refusedAt: nil),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) {
        var meter = BodyRateMeter(minimumRate: row.rate)
        var refusedAt: Int?
        for (index, bytes) in row.bytesPerTick.enumerated() {
            meter.record(bytes)
            if meter.tick() {
                refusedAt = index + 1
                break
            }
        }
        #expect(refusedAt == row.refusedAt)
    }
}
