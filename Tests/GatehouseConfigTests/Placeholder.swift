import Testing
@testable import GatehouseConfig
@Test func placeholderConfig() { #expect(true) }
