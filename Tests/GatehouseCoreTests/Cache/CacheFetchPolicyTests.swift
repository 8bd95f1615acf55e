import Testing
@testable import GatehouseCore

/// The request's `Cache-Control` → the fetch policy.
struct CacheFetchPolicyTests {
    static let rows: [(String?, CacheFetchPolicy)] = [
        (nil, .preferCache),
        ("", .preferCache),
        ("max-age=60", .preferCache),
        ("no-cache", .serverOnly),
        ("No-Cache", .serverOnly),
        ("no-cachex", .preferCache),
        ("max-age=0", .serverOnly),
        ("Max-Age=0", .serverOnly),
        ("max-age=00", .serverOnly),
        ("max-age=\"0\"", .serverOnly),
        ("max-age=01", .preferCache),
        ("max-age=", .preferCache),
        // Two request lines arrive joined (`combinedValue`): the second line's directive counts.
        ("max-age=60, no-store", .bypass),
        ("only-if-cached", .cacheOnly),
        ("no-cache, only-if-cached", .cacheOnly),
        ("no-store", .bypass),
        ("only-if-cached, no-store", .bypass),
        ("private, no-cache", .serverOnly),
    ]

    @Test(arguments: rows)
    func policy(_ header: String?, _ expected: CacheFetchPolicy) {
        #expect(CacheFetchPolicy.from(header.map { Array($0.utf8)[...] }) == expected)
    }
}
