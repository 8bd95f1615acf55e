import GatehouseIO
import Glibc
import GatehouseConfig
import GatehouseCore
import GatehouseGraphQL

/// `gatehouse token`: an HS256 JWT for local testing.
enum Token {
    static func run(_ options: Options) throws -> Int32 {
        guard let secret = options.value("--secret") else { throw UsageError("token needs --secret") }
        guard let subject = options.value("--sub") else { throw UsageError("token needs --sub") }
        let ttl: Duration
        switch DurationSyntax.parse(options.value("--ttl") ?? "1h") {
        case .success(let value): ttl = value
        case .failure: throw UsageError("--ttl takes a duration such as 15m or 1h")
        }
        let now = FileSystem.unixSeconds
        var claims: [(String, JSONValue)] = [("sub", .string(subject)), ("iat", .number(String(now))),
                                             ("exp", .number(String(now + ttl.components.seconds)))]
        if let audience = options.value("--aud") { claims.append(("aud", .string(audience))) }
        if let issuer = options.value("--iss") { claims.append(("iss", .string(issuer))) }
        for pair in options.all("--claim") {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw UsageError("--claim takes key=value")
            }
            let key = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            claims.removeAll { $0.0 == key }
            claims.append((key, .string(value)))
        }
        print(JWTMinter.hs256(secret: secret, claims: claims))
        fflush(nil)
        return 0
    }
}
