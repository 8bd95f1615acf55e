import GatehouseConfig
import GatehouseGraphQL

/// Reading what a key URL or discovery URL answered.
enum KeyDocuments {
    /// The `jwks_uri` of an OpenID Provider configuration (OpenID Connect Discovery 1.0 §3).
    static func jwksURI(fromDiscovery document: FetchedDocument) -> Result<KeyURL, KeyFetchError> {
        guard document.status == 200 else { return .failure(KeyFetchError("answered HTTP \(document.status)")) }
        guard let object = try? JSONReader.parse(document.body, maxDepth: 16).objectValue else {
            return .failure(KeyFetchError("the discovery document is not a JSON object"))
        }
        guard let text = object["jwks_uri"]?.stringValue else {
            return .failure(KeyFetchError("the discovery document has no \"jwks_uri\" string"))
        }
        return KeyURL.parse(text).mapError { KeyFetchError("jwks_uri: \($0.message)") }
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
