import GatehouseConfig
import GatehouseGraphQL

/// Reading what a key URL or discovery URL answered.
enum KeyDocuments {
    /// The `jwks_uri` of an OpenID Provider configuration (OpenID Connect Discovery 1.0 §3).
    /// The `jwks_uri` of a discovery document fetched from `documentURL` for `issuer`. The
    /// document must name that issuer as its own (OpenID Connect Discovery 1.0 §4.3: a document
    /// served for one issuer may not speak for another), and an https issuer's keys come over
    /// https: a plain-http `jwks_uri` would let anyone on the path hand the gateway its keys.
    static func jwksURI(fromDiscovery document: FetchedDocument, documentURL: KeyURL,
                        issuer: String?) -> Result<KeyURL, KeyFetchError> {
        guard document.status == 200 else { return .failure(KeyFetchError("answered HTTP \(document.status)")) }
        guard let object = try? JSONReader.parse(document.body, maxDepth: 16).objectValue else {
            return .failure(KeyFetchError("the discovery document is not a JSON object"))
        }
        if let issuer, object["issuer"]?.stringValue != issuer {
            return .failure(KeyFetchError("the discovery document's \"issuer\" is not \(issuer)"))
        }
        guard let text = object["jwks_uri"]?.stringValue else {
            return .failure(KeyFetchError("the discovery document has no \"jwks_uri\" string"))
        }
        return KeyURL.parse(text).mapError { KeyFetchError("jwks_uri: \($0.message)") }.flatMap { url in
            documentURL.scheme == .https && url.scheme != .https
                ? .failure(KeyFetchError("jwks_uri: an https issuer's keys must come over https, not \(url)"))
                : .success(url)
        }
    }

    /// A JWK Set with at least one key for the provider's algorithms.
    static func keySet(_ document: FetchedDocument, algorithms: [JWTAlgorithm]) -> Result<JWKSet, KeyFetchError> {
        guard document.status == 200 else { return .failure(KeyFetchError("answered HTTP \(document.status)")) }
        let keys: JWKSet
        do {
            keys = try JWKSet(json: document.body)
        } catch {
            return .failure(KeyFetchError("bad key set: " + error.problems.joined(separator: "; ")))
        }
        let keyAlgorithms = algorithms.filter { $0.family != .hmac }
        guard keyAlgorithms.isEmpty || keyAlgorithms.contains(where: keys.hasKey(fitting:)) else {
            let names = keyAlgorithms.map(\.rawValue).joined(separator: ", ")
            return .failure(KeyFetchError("bad key set: no key fits \(names)"))
        }
        return .success(keys)
    }
}
