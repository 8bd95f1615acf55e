import GatehouseGraphQL

/// `auth:` — credential checks, by name. Secrets and keys never appear in messages.
extension ConfigDecoder {
    /// The algorithms a JWT provider may accept. `none` is absent on purpose and refused by name.
    static let jwtAlgorithms = ["HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "PS256", "ES256", "ES384"]

    /// RFC 7518 §3.2 asks for a key at least as long as the hash; 32 bytes is the floor for all.
    static let minimumSecretBytes = 32

    /// Providers in file order, plus every declared name (see `upstreams`).
    func authProviders(_ node: YAMLNode, _ path: String) -> (providers: [AuthProviderConfig], names: Set<String>) {
        guard var map = mapping(node, path) else { return ([], []) }
        var providers: [AuthProviderConfig] = []
        var names: Set<String> = []
        for entry in map.takeAll() {
            names.insert(entry.key)
            let entryPath = path.appendingKey(entry.key)
            var nameIsValid = checkName(entry.key, entryPath, at: entry.keyMark)
            if entry.key == "none" {
                report(entryPath, "\"none\" means a public route; give the provider another name", at: entry.keyMark)
                nameIsValid = false
            }
            if let kind = provider(entry.value, entryPath), nameIsValid {
                providers.append(AuthProviderConfig(name: entry.key, kind: kind))
            }
        }
        return (providers, names)
    }

    // MARK: - One provider

    private func provider(_ node: YAMLNode, _ path: String) -> AuthProviderConfig.Kind? {
        guard var map = mapping(node, path) else { return nil }
        guard let type = map.required("type", "required (jwt, firebase or api_key)", nonEmptyString) else { return nil }
        let kind: AuthProviderConfig.Kind?
        switch type {
        case "jwt":
            kind = jwtProvider(&map).map { .jwt($0) }
        case "firebase":
            kind = firebaseProvider(&map).map { .jwt($0) }
        case "api_key":
            kind = apiKeyProvider(&map).map { .apiKey($0) }
        default:
            let typeNode = map.take("type")?.value ?? node
            report(path.appendingKey("type"), "unknown type \"\(type)\" (expected jwt, firebase or api_key)", at: typeNode.mark)
            return nil
        }
        map.finish()
        return kind
    }

    // MARK: - type: jwt

    private func jwtProvider(_ map: inout MappingReader) -> JWTProviderConfig? {
        var jwt = JWTProviderConfig()
        var isValid = true

        let algorithms = map.required("algorithms", "required; list the accepted algorithms, e.g. [RS256]") {
            self.algorithmList($0, $1)
        }
        if let algorithms { jwt.algorithms = algorithms.map(\.name) } else { isValid = false }

        let issuer = map.value("issuer", nonEmptyString)
        jwt.issuer = issuer
        if !keySource(&map, &jwt, algorithms: algorithms, issuer: issuer) { isValid = false }
        if !remoteKeyOptions(&map, &jwt) { isValid = false }
        if let sources = map.value("token_from", tokenSources) { jwt.tokenSources = sources }

        if let audience = map.value("audience", { self.stringOrList($0, $1) }) { jwt.audience = audience }
        if let leeway = map.value("leeway", anyDuration) { jwt.leeway = leeway }
        if let claims = map.value("claims_to_headers", claimHeaders) { jwt.claimsToHeaders = claims }
        return isValid ? jwt : nil
    }

    func algorithmList(_ node: YAMLNode, _ path: String) -> [(name: String, path: String, mark: YAMLMark)]? {
        guard let items = list(node, path) else { return nil }
        guard !items.isEmpty else {
            report(path, "must list at least one algorithm", at: node.mark)
            return nil
        }
        var algorithms: [(name: String, path: String, mark: YAMLMark)] = []
        var allValid = true
        for (index, item) in items.enumerated() {
            let itemPath = path.appendingIndex(index)
            guard let name = string(item, itemPath) else {
                allValid = false
                continue
            }
            let words = name.split(whereSeparator: \.isWhitespace)
            if words.count == 1 && words[0].lowercased() == "none" {
                report(itemPath, "\"none\" (unsigned tokens) is never accepted", at: item.mark)
                allValid = false
            } else if !Self.jwtAlgorithms.contains(name) {
                let expected = Self.jwtAlgorithms.joined(separator: ", ")
                report(itemPath, "unknown algorithm \"\(name)\" (expected one of \(expected))", at: item.mark)
                allValid = false
            } else {
                algorithms.append((name, itemPath, item.mark))
            }
        }
        return allValid ? algorithms : nil
    }

    func secret(_ node: YAMLNode, _ path: String) -> String? {
        guard let secret = string(node, path) else { return nil }
        guard secret.utf8.count >= Self.minimumSecretBytes else {
            report(path, "must be at least \(Self.minimumSecretBytes) bytes", at: node.mark)
            return nil
        }
        return secret
    }

    /// A JWK Set is a JSON object with a non-empty `keys` list; the keys themselves are checked
    /// when the gateway loads them.
    func checkJWKSet(_ file: String, _ path: String, at mark: YAMLMark) {
        let document = files.contents(of: file).flatMap { try? JSONReader.parse($0) }
        guard case .array(let keys)? = document?["keys"], !keys.isEmpty else {
            report(path, "\"\(file)\" is not a JWK Set (a JSON object with a non-empty \"keys\" list)", at: mark)
            return
        }
    }

    /// A string or a list of strings, none empty.
    func stringOrList(_ node: YAMLNode, _ path: String) -> [String]? {
        if case .scalar = node.content, !node.isNull {
            return nonEmptyString(node, path).map { [$0] }
        }
        return list(node, path, nonEmptyString)
    }

    // MARK: - type: api_key

    private func apiKeyProvider(_ map: inout MappingReader) -> APIKeyProviderConfig? {
        var apiKey = APIKeyProviderConfig()
        var isValid = true
        if let entry = map.take("header") {
            let headerPath = map.path.appendingKey("header")
            if let header = string(entry.value, headerPath) {
                if HTTPSyntax.isToken(header) {
                    apiKey.header = header
                } else {
                    report(headerPath, "\"\(header)\" is not a valid header name", at: entry.value.mark)
                    isValid = false
                }
            }
        }
        if let keys = map.required("keys", "required; list the accepted keys", apiKeys) {
            apiKey.keys = keys
        } else {
            isValid = false
        }
        return isValid ? apiKey : nil
    }

    private func apiKeys(_ node: YAMLNode, _ path: String) -> [String]? {
        guard let keys = list(node, path, { item, itemPath -> String? in
            guard let key = self.nonEmptyString(item, itemPath) else { return nil }
            guard !HTTPSyntax.containsControlCharacter(key) else {
                self.report(itemPath, "contains CR, LF, NUL or another control character (value not shown)",
                            at: item.mark)
                return nil
            }
            return key
        }) else { return nil }
        guard !keys.isEmpty else {
            report(path, "must list at least one key", at: node.mark)
            return nil
        }
        return keys
    }
}
