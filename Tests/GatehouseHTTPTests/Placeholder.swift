import Testing
@testable import GatehouseHTTP
@Test func placeholderHTTP() { #expect(true) }
