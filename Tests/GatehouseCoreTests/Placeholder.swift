import Testing
@testable import GatehouseCore
@Test func placeholderCore() { #expect(true) }
