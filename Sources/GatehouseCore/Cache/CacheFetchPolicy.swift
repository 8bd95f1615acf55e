import GatehouseHTTP

/// What the request's `Cache-Control` asks of the cache (the fetch policies of client-side
/// GraphQL caches: prefer cache, server only, cache only).
enum CacheFetchPolicy: Equatable {
    /// No directive: a fresh entry is served, a miss goes upstream and is stored.
    case preferCache
    /// `no-cache` or `max-age=0`: forward, then refresh the entry.
    case serverOnly
    /// `only-if-cached`: a miss is 504 `CACHE_MISS`.
    case cacheOnly
    /// `no-store`: the cache is neither read nor written.
    case bypass

    /// From the value of the request's `Cache-Control` header (nil: none). The strongest
    /// directive wins: `no-store`, then `only-if-cached`, then `no-cache`/`max-age=0`.
    static func from(_ value: ArraySlice<UInt8>?) -> CacheFetchPolicy {
        guard let value else { return .preferCache }
        // The one directive a refresh sends, told without splitting the list.
        if value.withUnsafeBytes({ HeaderNames.asciiCaseInsensitiveEquals($0, "no-cache") }) { return .serverOnly }
        var policy = CacheFetchPolicy.preferCache
        FieldList.forEachItem(in: value) { directive in
            let named = { (name: StaticString) in HeaderNames.asciiCaseInsensitiveEquals(directive, name) }
            if named("no-store") {
                policy = .bypass
                return false
            }
            if named("only-if-cached") {
                policy = .cacheOnly
            } else if policy != .cacheOnly, named("no-cache") || isZeroMaxAge(directive) {
                policy = .serverOnly
            }
            return true
        }
        return policy
    }

    /// `max-age` of 0 in any spelling of its delta-seconds: `0`, `00`, `"0"` (RFC 9111 §5.2).
    static func isZeroMaxAge(_ directive: ArraySlice<UInt8>) -> Bool {
        guard directive.withUnsafeBytes({ HeaderNames.asciiCaseInsensitiveHasPrefix($0, "max-age=") }) else { return false }
        var digits = directive.dropFirst(8)
        if digits.count >= 2, digits.first == UInt8(ascii: "\""), digits.last == UInt8(ascii: "\"") {
            digits = digits.dropFirst().dropLast()
        }
        return !digits.isEmpty && digits.allSatisfy { $0 == UInt8(ascii: "0") }
    }
}

/// The directives of a `Cache-Control` value: lowercased names and their arguments.
struct CacheControlDirectives: Sequence {
    struct Directive: Equatable {
        var name: String
        var argument: String?
    }

    let directives: [Directive]

    init(_ value: ArraySlice<UInt8>) {
        let text = String(decoding: value, as: UTF8.self)
        directives = text.split(separator: ",").compactMap { part in
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard let first = pieces.first else { return nil }
            let name = first.trimmingSpaces().lowercased()
            if name.isEmpty { return nil }
            var argument = pieces.count > 1 ? pieces[1].trimmingSpaces() : nil
            if let quoted = argument, quoted.hasPrefix("\""), quoted.hasSuffix("\""), quoted.count >= 2 {
                argument = String(quoted.dropFirst().dropLast())
            }
            return Directive(name: name, argument: argument)
        }
    }

    func makeIterator() -> IndexingIterator<[Directive]> { directives.makeIterator() }

    /// The seconds of `name` (`max-age=30`), when present and a number.
    func seconds(_ name: String) -> Int? {
        directives.first { $0.name == name }?.argument.flatMap { Int($0) }.map { Swift.max(0, $0) }
    }

    func contains(_ name: String) -> Bool { directives.contains { $0.name == name } }
}

extension Substring {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
