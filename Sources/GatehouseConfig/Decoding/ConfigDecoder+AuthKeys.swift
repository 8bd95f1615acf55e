/// Where a JWT provider's keys come from (`jwks_file`, `secret`, `jwks_url`, `discovery`), how
/// remote keys are refreshed and fetched (`refresh`, `tls`), where tokens are looked for
/// (`token_from`), and the Firebase preset.
extension ConfigDecoder {
    typealias AlgorithmEntry = (name: String, path: String, mark: YAMLMark)

    /// Exactly one key source; algorithms must fit it. False when the provider is unusable.
    func keySource(_ map: inout MappingReader, _ jwt: inout JWTProviderConfig,
                   algorithms: [AlgorithmEntry]?, issuer: String?) -> Bool {
        let path = map.path
        let jwksEntry = map.take("jwks_file")
        let secretEntry = map.take("secret")
        let urlEntry = map.take("jwks_url")
        let discoveryEntry = map.take("discovery")
        var isValid = true
        var discovery = false
        if let discoveryEntry, let enabled = bool(discoveryEntry.value, path.appendingKey("discovery")) {
            discovery = enabled
        } else if discoveryEntry != nil {
            isValid = false
        }
        if let jwksEntry {
            let filePath = path.appendingKey("jwks_file")
            jwt.jwksFile = readableFile(jwksEntry.value, filePath)
            if let file = jwt.jwksFile { checkJWKSet(file, filePath, at: jwksEntry.value.mark) } else { isValid = false }
        }
        if let secretEntry {
            jwt.secret = secret(secretEntry.value, path.appendingKey("secret"))
        }
        if let urlEntry {
            let urlPath = path.appendingKey("jwks_url")
            if let url = keyURL(urlEntry.value, urlPath) {
                jwt.remoteKeys = RemoteKeysConfig(location: .url(url))
            } else {
                isValid = false
            }
        } else if discovery {
            if let issuer {
                let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
                switch KeyURL.parse(trimmed + RemoteKeysConfig.discoverySuffix) {
                case .success(let url):
                    jwt.remoteKeys = RemoteKeysConfig(location: .discovery(url))
                    jwt.remoteKeys?.issuer = issuer
                case .failure(let problem):
                    report(path.appendingKey("issuer"), "discovery needs an http(s) issuer: \(problem.message)", at: map.mark)
                    isValid = false
                }
            } else {
                report(path.appendingKey("issuer"), "required with discovery: true", at: discoveryEntry?.keyMark ?? map.mark)
                isValid = false
            }
        }

        let given: [(key: String, entry: YAMLMappingEntry)] = [("jwks_file", jwksEntry), ("secret", secretEntry),
                                                               ("jwks_url", urlEntry),
                                                               ("discovery", discovery ? discoveryEntry : nil)]
            .compactMap { item in item.1.map { (item.0, $0) } }
        guard let first = given.first else {
            if !isValid { return false }  // the source given was refused already
            report(path, "one of jwks_file, jwks_url, discovery: true or secret is required", at: map.mark)
            return false
        }
        if given.count > 1 {
            let second = given[1]
            report(path.appendingKey(second.key), "give only one of jwks_file, jwks_url, discovery or secret (\(first.key) is set)",
                   at: second.entry.keyMark)
            return false
        }
        let usesSecret = first.key == "secret"
        for algorithm in algorithms ?? [] where algorithm.name.hasPrefix("HS") != usesSecret {
            let message = usesSecret
                ? "\(algorithm.name) verifies with keys (jwks_file, jwks_url or discovery), not a secret"
                : "\(algorithm.name) verifies with a secret, not \(first.key) keys"
            report(algorithm.path, message, at: algorithm.mark)
            isValid = false
        }
        return isValid
    }

    /// `refresh: {min, max}` and `tls: {ca_file}`; only with remote keys.
    func remoteKeyOptions(_ map: inout MappingReader, _ jwt: inout JWTProviderConfig) -> Bool {
        let refreshEntry = map.take("refresh")
        let tlsEntry = map.take("tls")
        guard jwt.remoteKeys != nil else {
            for entry in [refreshEntry, tlsEntry].compactMap({ $0 }) {
                report(map.path.appendingKey(entry.key), "only with jwks_url or discovery", at: entry.keyMark)
            }
            return refreshEntry == nil && tlsEntry == nil
        }
        var isValid = true
        if let refreshEntry, var refresh = mapping(refreshEntry.value, map.path.appendingKey("refresh")) {
            let minimum = refresh.value("min", positiveDuration)
            let maximum = refresh.value("max", positiveDuration)
            refresh.finish()
            if let minimum { jwt.remoteKeys?.minRefresh = minimum }
            if let maximum { jwt.remoteKeys?.maxRefresh = maximum }
            if let keys = jwt.remoteKeys, keys.minRefresh > keys.maxRefresh {
                report(refresh.path.appendingKey("max"), "must not be less than min", at: refreshEntry.value.mark)
                isValid = false
            }
        } else if refreshEntry != nil {
            isValid = false
        }
        if let tlsEntry, var tls = mapping(tlsEntry.value, map.path.appendingKey("tls")) {
            jwt.remoteKeys?.caFile = tls.value("ca_file", readableFile)
            tls.finish()
        } else if tlsEntry != nil {
            isValid = false
        }
        return isValid
    }

    func keyURL(_ node: YAMLNode, _ path: String) -> KeyURL? {
        parsed(node, path, expected: "an http:// or https:// URL", KeyURL.parse)
    }

    // MARK: - token_from

    /// `[header, cookie:NAME, query:NAME]`, no repeats.
    func tokenSources(_ node: YAMLNode, _ path: String) -> [TokenSource]? {
        guard let sources = list(node, path, tokenSource) else { return nil }
        guard !sources.isEmpty else {
            report(path, "must list at least one source (header, cookie:NAME or query:NAME)", at: node.mark)
            return nil
        }
        for (index, source) in sources.enumerated() where sources[..<index].contains(source) {
            report(path.appendingIndex(index), "listed twice", at: node.mark)
            return nil
        }
        return sources
    }

    private func tokenSource(_ node: YAMLNode, _ path: String) -> TokenSource? {
        guard let text = string(node, path) else { return nil }
        if text == "header" { return .header }
        let expected = "expected header, cookie:NAME or query:NAME"
        guard let colon = text.firstIndex(of: ":") else {
            report(path, "unknown token source \"\(text)\" (\(expected))", at: node.mark)
            return nil
        }
        let kind = text[..<colon]
        let name = String(text[text.index(after: colon)...])
        guard HTTPSyntax.isToken(name) else {
            report(path, "\"\(name)\" is not a valid cookie or parameter name", at: node.mark)
            return nil
        }
        switch kind {
        case "cookie": return .cookie(name)
        case "query": return .query(name)
        default:
            report(path, "unknown token source \"\(kind)\" (\(expected))", at: node.mark)
            return nil
        }
    }

    // MARK: - type: firebase

    /// The preset: RS256 with Google's securetoken keys; issuer and audience from `project_id`.
    /// `jwks_url` and `issuer` may point elsewhere (a key proxy, a local test server).
    func firebaseProvider(_ map: inout MappingReader) -> JWTProviderConfig? {
        let path = map.path
        guard let projectID = map.required("project_id", "required; the Firebase project id", nonEmptyString) else {
            return nil
        }
        var jwt = JWTProviderConfig()
        jwt.algorithms = [FirebasePreset.algorithm]
        jwt.audience = [projectID]
        jwt.issuer = map.value("issuer", nonEmptyString) ?? FirebasePreset.issuer(projectID: projectID)
        jwt.firebaseRules = true
        var isValid = true
        let url: KeyURL?
        if let entry = map.take("jwks_url") {
            url = keyURL(entry.value, path.appendingKey("jwks_url"))
        } else {
            url = try? KeyURL.parse(FirebasePreset.jwksURL).get()
        }
        if let url { jwt.remoteKeys = RemoteKeysConfig(location: .url(url)) } else { isValid = false }
        if !remoteKeyOptions(&map, &jwt) { isValid = false }
        if let leeway = map.value("leeway", anyDuration) { jwt.leeway = leeway }
        if let claims = map.value("claims_to_headers", claimHeaders) { jwt.claimsToHeaders = claims }
        if let sources = map.value("token_from", tokenSources) { jwt.tokenSources = sources }
        return isValid ? jwt : nil
    }
}
