import Testing
@testable import GatehouseIO
@Test func placeholderIO() { #expect(true) }
