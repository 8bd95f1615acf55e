import GatehouseConfig
import GatehouseHTTP

/// The parts of a cache key, from the request: route, upstream, operation (the digest of the
/// document sent and the name of the operation it runs), canonical variables, what of the
/// request target reaches the upstream as sent, the `vary` headers and the scope. Pure, so the
/// rows of what makes two requests share an entry are unit tests.
enum CacheKeyBuilder {
    /// Who may be served an entry, as key material.
    enum ScopeMaterial: Equatable {
        case everyone
        /// Auth provider and verified subject.
        case subject(provider: String, subject: String)
        /// The SHA-256 of the API key or token (never the credential itself).
        case credential(provider: String, digest: String)

        func append(to material: inout CacheKeyMaterial) {
            switch self {
            case .everyone: material.append(joining: "public")
            case .subject(let provider, let subject): material.append(joining: "subject", provider, subject)
            case .credential(let provider, let digest): material.append(joining: "credential", provider, digest)
            }
        }
    }

    static func key(route: String, upstream: String, operation: CacheableOperation, forwardedTarget: ArraySlice<UInt8> = [],
                    varyValues: [[UInt8]], scope: ScopeMaterial) -> CacheKey {
        key(routePart: routePart(route: route, upstream: upstream), operation: operation, forwardedTarget: forwardedTarget,
            varyValues: varyValues, scope: scope)
    }

    /// The parts a route's keys all start with, built once per route (`CompiledRouteCache`).
    static func routePart(route: String, upstream: String) -> CacheKeyMaterial {
        var material = CacheKeyMaterial()
        material.append(text: route)
        material.append(text: upstream)
        return material
    }

    static func key(routePart: CacheKeyMaterial, operation: CacheableOperation, forwardedTarget: ArraySlice<UInt8>,
                    varyValues: [[UInt8]], scope: ScopeMaterial) -> CacheKey {
        key(start: start(routePart: routePart, operation: operation), forwardedTarget: forwardedTarget,
            varyValues: varyValues, scope: scope)
    }

    /// The route and the operation: what a key holds before the parts of the request itself.
    /// The name tells apart the operations of one document (`operationName`).
    static func start(routePart: CacheKeyMaterial, operation: CacheableOperation) -> CacheKeyMaterial {
        var material = routePart
        material.append(text: operation.documentDigest)
        material.append(text: operation.name)
        material.append(operation.canonicalVariables)
        return material
    }

    /// `forwardedTarget`: what the upstream's request target carries beyond the route's own
    /// path, empty when the gateway wrote the target itself (`forwardedTarget(of:remainderStart:)`).
    static func key(start: CacheKeyMaterial, forwardedTarget: ArraySlice<UInt8>, varyValues: [[UInt8]],
                    scope: ScopeMaterial) -> CacheKey {
        var material = start
        material.append(forwardedTarget)
        for value in varyValues { material.append(value) }
        scope.append(to: &material)
        return CacheKey(material)
    }

    /// What a GET call's translation keeps of its key (`PreparedCallMemo`): the whole key where
    /// nothing of the request goes into it (a public scope, no `vary`), else its start.
    enum KnownPart {
        case whole(CacheKey)
        case start(CacheKeyMaterial)
    }

    static func knownPart(routePart: CacheKeyMaterial, scope: RouteCacheConfig.Scope, varyNames: [String],
                          operation: CacheableOperation) -> KnownPart {
        let start = start(routePart: routePart, operation: operation)
        guard scope == .public, varyNames.isEmpty else { return .start(start) }
        return .whole(key(start: start, forwardedTarget: [], varyValues: [], scope: .everyone))
    }

    /// For a request whose target goes upstream as sent: the rest of the path after a prefix
    /// route's prefix (`remainderStart`; the end of the path on an exact route) and the query
    /// string. Both reach the upstream, so two requests that differ in them must not share an
    /// entry: a prefix route in front of per-tenant paths, a query parameter the upstream reads.
    static func forwardedTarget(of head: RequestHead, remainderStart: Int) -> ArraySlice<UInt8> {
        head.bytes[remainderStart..<head.target.upperBound]
    }

    /// The scope material for the request, or nil when it cannot be told (a subject scope
    /// without an authenticated caller): such requests are not cached.
    static func scope(_ scope: RouteCacheConfig.Scope, identity: AuthenticatedIdentity, head: RequestHead) -> ScopeMaterial? {
        switch (scope, identity) {
        case (.public, _):
            return .everyone
        case (_, .anonymous):
            return nil
        case (.subject, .token(let provider, let subject?)):
            return .subject(provider: provider, subject: subject)
        case (_, .token(let provider, _)):
            // A token without `sub` is its own scope: nobody else holds it.
            guard let range = head.headerValue(named: "authorization") else { return nil }
            return .credential(provider: provider, digest: PersistedQueryHash.sha256Hex(head.bytes[range]))
        case (_, .apiKey(let provider, let value)):
            // An API key has no subject: each key is its own caller.
            return .credential(provider: provider, digest: PersistedQueryHash.sha256Hex(head.bytes[value]))
        }
    }

    /// The values of the `vary` headers (lowercased names), each "name:value" (empty when absent).
    /// A header sent in several lines is every line, joined with ", " as the upstream reads them:
    /// `Accept-Language: en` and a second line `evil` are not the entry of `en` alone.
    static func varyValues(_ names: [String], head: RequestHead) -> [[UInt8]] {
        guard !names.isEmpty else { return [] }
        return names.map { name in
            var part = Array(name.utf8)
            part.append(UInt8(ascii: ":"))
            var lines = 0
            for field in head.headers where equalsIgnoringCase(head.bytes[field.name], name.utf8) {
                if lines > 0 { part.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")]) }
                part.append(contentsOf: head.bytes[field.value])
                lines += 1
            }
            return part
        }
    }

    static func equalsIgnoringCase<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ lowercased: B) -> Bool {
        a.count == lowercased.count
            && zip(a, lowercased).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }
    }
}
