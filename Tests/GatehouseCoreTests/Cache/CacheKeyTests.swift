import GatehouseConfig
import GatehouseGraphQL
import GatehouseHTTP
import Testing
@testable import GatehouseCore

/// What makes two requests share an entry: the rows are variables as sent, and whether their
/// canonical forms (hence keys) are equal.
struct CacheKeyTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var first: String
        var second: String
        var same: Bool
        var testDescription: String { "\(first) vs \(second)" }
    }

    static let rows: [Row] = [
        Row(first: #"{"a":1,"b":"x"}"#, second: #"{"b":"x","a":1}"#, same: true),
        Row(first: #"{"a":1}"#, second: #"{"a":1.0}"#, same: true),
        Row(first: #"{"a":100}"#, second: #"{"a":1e2}"#, same: true),
        Row(first: #"{"a":0.5}"#, second: #"{"a":5e-1}"#, same: true),
        Row(first: #"{"a":{"z":1,"y":[2,{"q":1,"p":2}]}}"#, second: #"{"a":{"y":[2,{"p":2,"q":1}],"z":1}}"#, same: true),
        Row(first: #"{"a":[1,2]}"#, second: #"{"a":[2,1]}"#, same: false),
        Row(first: #"{"a":"1"}"#, second: #"{"a":1}"#, same: false),
        Row(first: #"{"a":null}"#, second: #"{}"#, same: false),
        Row(first: #"{"a":1}"#, second: #"{"a":2}"#, same: false),
        // Past 2^53 a double holds neither: 64-bit ids must stay apart.
        Row(first: #"{"id":1234567890123456789}"#, second: #"{"id":1234567890123456790}"#, same: false),
        Row(first: #"{"id":9007199254740993}"#, second: #"{"id":9007199254740992}"#, same: false),
        Row(first: #"{"id":9007199254740993}"#, second: #"{"id":9007199254740993.0}"#, same: true),
        Row(first: #"{"a":0.1}"#, second: #"{"a":0.10000000000000001}"#, same: false),
        Row(first: #"{"a":12e-1}"#, second: #"{"a":1.2}"#, same: true),
        Row(first: #"{"a":0}"#, second: #"{"a":-0.0e5}"#, same: true),
        Row(first: #"{"a":-3}"#, second: #"{"a":3}"#, same: false),
    ]

    @Test(arguments: rows)
    func canonicalVariables(_ row: Row) throws {
        let first = CanonicalJSON.bytes(try JSONReader.parse(row.first))
        let second = CanonicalJSON.bytes(try JSONReader.parse(row.second))
        #expect((first == second) == row.same, "\(String(decoding: first, as: UTF8.self)) / \(String(decoding: second, as: UTF8.self))")
    }

    @Test func canonicalFormIsCompactAndSorted() throws {
        let bytes = CanonicalJSON.bytes(try JSONReader.parse(#"{ "b" : [1.50, true], "a" : "x" }"#))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"a":"x","b":[15e-1,true]}"#)
    }

    @Test func canonicalNumbersAreExactDecimals() throws {
        let written = { (json: String) in String(decoding: CanonicalJSON.bytes(try JSONReader.parse(json)), as: UTF8.self) }
        #expect(try written(#"[1, 1.0, 100, 1e2, 0.5, -2.50, 0, -0, 1234567890123456789, 1.5e300, 25e-4]"#)
                == "[1,1,100,100,5e-1,-25e-1,0,0,1234567890123456789,15e299,25e-4]")
    }

    static func operation(_ variables: String = "{}", document: String = "d1", name: String = "Op") -> CacheableOperation {
        CacheableOperation(name: name, isQuery: true, isMutation: false, documentDigest: document,
                           canonicalVariables: Array(variables.utf8))
    }

    @Test func everyPartTellsEntriesApart() {
        let base = CacheKeyBuilder.key(route: "/ops/*", upstream: "app", operation: Self.operation(), varyValues: [],
                                       scope: .everyone)
        let variants = [
            CacheKeyBuilder.key(route: "/other", upstream: "app", operation: Self.operation(), varyValues: [], scope: .everyone),
            CacheKeyBuilder.key(route: "/ops/*", upstream: "b", operation: Self.operation(), varyValues: [], scope: .everyone),
            CacheKeyBuilder.key(route: "/ops/*", upstream: "app", operation: Self.operation(document: "d2"), varyValues: [],
                                scope: .everyone),
            CacheKeyBuilder.key(route: "/ops/*", upstream: "app", operation: Self.operation(#"{"a":1}"#), varyValues: [],
                                scope: .everyone),
            // Another operation of the same document (`operationName`).
            CacheKeyBuilder.key(route: "/ops/*", upstream: "app", operation: Self.operation(name: "Other"), varyValues: [],
                                scope: .everyone),
            // Another path under a prefix route, or a query string the upstream gets.
            CacheKeyBuilder.key(route: "/ops/*", upstream: "app", operation: Self.operation(),
                                forwardedTarget: Array("tenantB/graphql".utf8)[...], varyValues: [], scope: .everyone),
            CacheKeyBuilder.key(route: "/ops/*", upstream: "app", operation: Self.operation(),
                                forwardedTarget: Array("?locale=fr".utf8)[...], varyValues: [], scope: .everyone),
            CacheKeyBuilder.key(route: "/ops/*", upstream: "app", operation: Self.operation(),
                                varyValues: [Array("accept-language:fr".utf8)], scope: .everyone),
            CacheKeyBuilder.key(route: "/ops/*", upstream: "app", operation: Self.operation(), varyValues: [],
                                scope: .subject(provider: "jwt", subject: "alice")),
            CacheKeyBuilder.key(route: "/ops/*", upstream: "app", operation: Self.operation(), varyValues: [],
                                scope: .credential(provider: "jwt", digest: "abc")),
        ]
        #expect(Set(variants + [base]).count == variants.count + 1)
        let again = CacheKeyBuilder.key(route: "/ops/*", upstream: "app", operation: Self.operation(), varyValues: [],
                                        scope: .everyone)
        #expect(again == base)
    }

    @Test func materialIsLengthPrefixedParts() {
        var material = CacheKeyMaterial()
        material.append(Array("ab".utf8))
        material.append([UInt8]())
        material.append(Array(repeating: UInt8(ascii: "x"), count: 10))
        material.append(joining: "subject", "p", "42")
        let digest = String(decoding: CacheKey(material).hexDigits, as: UTF8.self)
        #expect(digest == PersistedQueryHash.sha256Hex(Array("2:ab0:10:xxxxxxxxxx12:subject\u{0}p\u{0}42".utf8)))
    }

    @Test func builderDigestsTheSamePartsAsAPartList() {
        let operation = Self.operation()
        let built = CacheKeyBuilder.key(route: "/ops/*", upstream: "app", operation: operation,
                                        varyValues: [Array("accept-language:de".utf8)],
                                        scope: .subject(provider: "users", subject: "42"))
        let listed = CacheKey(parts: [Array("/ops/*".utf8), Array("app".utf8), Array(operation.documentDigest.utf8),
                                      Array(operation.name.utf8), operation.canonicalVariables, [],
                                      Array("accept-language:de".utf8),
                                      Array("subject\u{0}users\u{0}42".utf8)])
        #expect(built == listed)
    }

    /// What a GET call's translation keeps of its key makes the key the request would make.
    @Test func aKnownPartMakesTheSameKey() {
        let operation = Self.operation(#"{"a":1}"#)
        let routePart = CacheKeyBuilder.routePart(route: "/ops/*", upstream: "app")
        guard case .whole(let whole) = CacheKeyBuilder.knownPart(routePart: routePart, scope: .public, varyNames: [],
                                                                 operation: operation) else {
            Issue.record("a public scope without vary keeps the whole key")
            return
        }
        #expect(whole == CacheKeyBuilder.key(route: "/ops/*", upstream: "app", operation: operation, varyValues: [],
                                             scope: .everyone))
        let subject = CacheKeyBuilder.ScopeMaterial.subject(provider: "users", subject: "42")
        let vary = [Array("accept-language:de".utf8)]
        for (scope, names) in [(RouteCacheConfig.Scope.subject, [String]()), (.public, ["accept-language"])] {
            guard case .start(let start) = CacheKeyBuilder.knownPart(routePart: routePart, scope: scope, varyNames: names,
                                                                     operation: operation) else {
                Issue.record("a subject scope or vary keeps only the start")
                continue
            }
            #expect(CacheKeyBuilder.key(start: start, forwardedTarget: [], varyValues: vary, scope: subject)
                    == CacheKeyBuilder.key(route: "/ops/*", upstream: "app", operation: operation, varyValues: vary,
                                           scope: subject))
        }
    }

    static func request(_ target: String, _ headers: String = "") -> RequestHead {
        RequestHeads.get(target, headers: headers)
    }

    /// A header named in `vary` sent in two lines is both lines, as the upstream reads it.
    @Test func aVaryHeaderInSeveralLinesIsAllOfThem() {
        let values = { (headers: String) in
            CacheKeyBuilder.varyValues(["accept-language", "x-tenant"], head: Self.request("/g", headers))
                .map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(values("Accept-Language: en\r\n") == ["accept-language:en", "x-tenant:"])
        #expect(values("Accept-Language: en\r\naccept-language: evil\r\n") == ["accept-language:en, evil", "x-tenant:"])
    }

    /// What of the request target reaches the upstream as sent: after a prefix route's prefix,
    /// with the query; on an exact route, the query alone.
    @Test func theForwardedTargetIsTheRemainderAndTheQuery() {
        let head = Self.request("/api/tenantA/graphql?locale=fr")
        let text = { (start: Int) in String(decoding: CacheKeyBuilder.forwardedTarget(of: head, remainderStart: start), as: UTF8.self) }
        #expect(text(head.path.lowerBound + "/api/".count) == "tenantA/graphql?locale=fr")
        #expect(text(head.path.upperBound) == "?locale=fr")
        let plain = Self.request("/graphql")
        #expect(CacheKeyBuilder.forwardedTarget(of: plain, remainderStart: plain.path.upperBound).isEmpty)
    }

    @Test func subjectsOfTwoProvidersDiffer() {
        let key = { (provider: String) in
            CacheKeyBuilder.key(route: "/ops/*", upstream: "app", operation: Self.operation(), varyValues: [],
                                scope: .subject(provider: provider, subject: "42"))
        }
        #expect(key("one") != key("two"))
    }
}

/// The fast path for bodies written from a held operation finds the same identity as parsing.
struct HeldBodyIdentityTests {
    @Test func heldBodyMatchesTheFullParse() throws {
        let operation = PersistedOperation(name: "listMovies", kind: .query,
                                           text: "query listMovies($genre: String) { movies(genre: $genre) { title } }",
                                           variables: [])
        let registry = OperationRegistry(operations: [operation], additionalHashes: [:])
        let body = operation.requestBody(variables: JSONObject([("genre", .string("drama")), ("limit", .number("5"))]))
        let fast = try #require(CacheableOperation.fromHeldBody(body, registry: registry))
        let full = try #require(CacheableOperation.fromDocument(operation.text, operationName: "listMovies",
                                                                variables: JSONObject([("limit", .number("5.0")),
                                                                                       ("genre", .string("drama"))]),
                                                                registry: registry))
        #expect(fast == full)
        #expect(fast.isQuery && fast.name == "listMovies")
        #expect(CacheableOperation.fromHeldBody(Array(#"{"query":"{ a }"}"#.utf8), registry: registry) == nil)
    }
}

/// A key is its digest: Redis names an entry by the digest's hex digits, and two keys are equal
/// exactly when their material is.
struct CacheKeyDigestTests {
    @Test func hexDigitsAreTheSHA256OfTheMaterial() {
        var material = CacheKeyMaterial()
        material.append(Array("abc".utf8))
        // SHA-256 of "3:abc".
        #expect(String(decoding: CacheKey(material).hexDigits, as: UTF8.self)
                == PersistedQueryHash.sha256Hex(Array("3:abc".utf8)))
    }

    @Test func keysDifferInAnyWordOfTheDigest() {
        let keys = (0..<64).map { CacheKey.named("k\($0)") }
        #expect(Set(keys).count == keys.count)
        #expect(CacheKey.named("k1") == CacheKey.named("k1"))
    }

    /// A dictionary's hash of a key: the same for equal keys under one seed, moved by the seed,
    /// and spread over a small table's slots as random values would be (1,024 keys into 1,024
    /// slots fill about 63%); a dictionary finds every key by it.
    @Test func keysHashBySeedAndSpread() {
        let key = CacheKey.named("listMovies")
        #expect(key._rawHashValue(seed: 1) == CacheKey.named("listMovies")._rawHashValue(seed: 1))
        #expect(key._rawHashValue(seed: 1) != key._rawHashValue(seed: 2))
        var slots = Set<Int>()
        for id in 0..<1_024 { slots.insert(CacheKey.named("movie \(id)")._rawHashValue(seed: 42) & 1_023) }
        #expect(slots.count > 590)
        var dictionary: [CacheKey: Int] = [:]
        for id in 0..<1_000 { dictionary[CacheKey.named("movie \(id)")] = id }
        var found = 0
        for id in 0..<1_000 where dictionary[CacheKey.named("movie \(id)")] == id { found += 1 }
        #expect(found == 1_000)
    }
}
