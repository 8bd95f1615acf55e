/// `redis://[:password@]host[:port][/db]`. The password may be given here or in the store's
/// `password:`; messages never repeat the URL, since it may carry one.
public enum RedisURLSyntax {
    /// Redis's default configuration has 16 databases; a server may be set up with more.
    public static let maximumDatabase = 65_535

    public static func parse(_ text: String) -> Result<RedisURL, ValueProblem> {
        let scheme = "redis://"
        guard text.hasPrefix(scheme) else {
            if text.hasPrefix("rediss://") {
                return .failure(ValueProblem("rediss:// (TLS) is not supported; use redis:// inside the pod network"))
            }
            return .failure(ValueProblem("expected a redis://[:password@]host:port[/db] URL"))
        }
        var rest = Substring(text.dropFirst(scheme.count))
        if rest.contains("?") || rest.contains("#") {
            return .failure(ValueProblem("a query string or fragment is not allowed in the url"))
        }
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            guard userInfo.hasPrefix(":") else {
                return .failure(ValueProblem("user info must be \":password@\" (Redis ACL user names are not supported)"))
            }
            guard userInfo.count > 1 else { return .failure(ValueProblem("the url's password is empty")) }
            guard let decoded = Percent.decode(userInfo.dropFirst()) else {
                return .failure(ValueProblem("the url's password has an invalid %-escape"))
            }
            password = decoded
            rest = rest[rest.index(after: at)...]
        }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var database = 0
        if authorityEnd != rest.endIndex {
            let digits = rest[rest.index(after: authorityEnd)...]
            if !digits.isEmpty {
                guard digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                      digits.count <= 5, let number = Int(digits), number <= maximumDatabase else {
                    return .failure(ValueProblem("the url's path must be a database number 0...\(maximumDatabase)"))
                }
                database = number
            }
        }
        switch UpstreamURLSyntax.hostAndPort(rest[..<authorityEnd], defaultPort: RedisURL.defaultPort) {
        case .success(let (host, port)):
            return .success(RedisURL(host: host, port: port, password: password, database: database))
        case .failure(let problem):
            return .failure(problem)
        }
    }

    /// %XX escapes of a password (a `@` or `/` in it must be written %40, %2F).
    enum Percent {
        static func decode(_ text: Substring) -> String? {
            var bytes: [UInt8] = []
            var iterator = Array(text.utf8).makeIterator()
            while let byte = iterator.next() {
                guard byte == UInt8(ascii: "%") else {
                    bytes.append(byte)
                    continue
                }
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        private static func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
    }
}
