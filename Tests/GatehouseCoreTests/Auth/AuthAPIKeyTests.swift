import GatehouseConfig
import Testing
@testable import GatehouseCore

@Suite("APIKeyAuthenticator")
struct AuthAPIKeyTests {
    static func authenticator(_ keys: [String], header: String = "X-Api-Key") -> APIKeyAuthenticator {
        var config = APIKeyProviderConfig()
        config.header = header
        config.keys = keys
        return APIKeyAuthenticator(providerName: "app-keys", config: config)
    }

    @Test(arguments: [
        ("right key", ["ios-key-0123456789"], "ios-key-0123456789", true),
        ("wrong key", ["ios-key-0123456789"], "ios-key-0123456780", false),
        ("missing key", ["ios-key-0123456789"], "", false),
        ("first of two keys", ["ios-key-0123456789", "web-key-abcdef"], "ios-key-0123456789", true),
        ("second of two keys", ["ios-key-0123456789", "web-key-abcdef"], "web-key-abcdef", true),
        ("neither of two keys", ["ios-key-0123456789", "web-key-abcdef"], "android-key", false),
        ("prefix of a key", ["ios-key-0123456789"], "ios-key", false),
        ("key with a suffix", ["ios-key-0123456789"], "ios-key-0123456789x", false),
        ("other case", ["ios-key-0123456789"], "IOS-KEY-0123456789", false),
        ("empty configured key never matches", [""], "", false),
        ("no keys configured", [], "anything", false),
    ])
    func comparesPresentedKey(name: String, keys: [String], presented: String, accepted: Bool) {
        #expect(Self.authenticator(keys).verify(Array(presented.utf8)) == accepted, "\(name)")
    }

    @Test func exposesHeaderName() {
        let authenticator = Self.authenticator(["k"], header: "X-App-Key")
        #expect(authenticator.headerName == "X-App-Key")
        #expect(authenticator.lowercasedHeaderName == Array("x-app-key".utf8))
    }
}
