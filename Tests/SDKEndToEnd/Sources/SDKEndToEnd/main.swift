import Foundation

// SDKEndToEnd --port N [--rate-limited-port M]
// N: a running `gatehouse demo --port N`. M: a gateway whose upstream answers every request
// with 429 (scripts/test-sdk.sh starts one); without it the 429 check is skipped.

func option(_ name: String) -> Int? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return Int(arguments[index + 1])
}

guard let port = option("--port") else {
    print("usage: SDKEndToEnd --port N [--rate-limited-port M]")
    exit(2)
}

let checks = Checks()
StarWarsDecoding.run(checks)
await DemoRoundTrip(port: port, rateLimitedPort: option("--rate-limited-port"), checks: checks).run()
print("\(checks.passed) passed, \(checks.failed) failed, \(checks.skipped) skipped")
exit(checks.failed == 0 ? 0 : 1)
