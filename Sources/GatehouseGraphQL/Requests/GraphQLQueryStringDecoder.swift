import GatehouseHTTP

/// Decodes `application/x-www-form-urlencoded` query strings (`&`-separated `name=value` pairs,
/// `+` as space, `%XX` escapes, UTF-8 text) and percent-encoded path segments.
enum GraphQLQueryStringDecoder {
    /// The pairs in order; empty pairs (`a=1&&b=2`) are skipped, a pair without `=` has value "".
    /// Fails on a malformed escape or on bytes that are not UTF-8 once decoded.
    static func pairs(_ query: ArraySlice<UInt8>) -> Result<[(name: String, value: String)], GraphQLRequestError> {
        var pairs: [(name: String, value: String)] = []
        for pair in query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let separator = pair.firstIndex(of: UInt8(ascii: "="))
            let rawName = pair[pair.startIndex..<(separator ?? pair.endIndex)]
            let rawValue = separator.map { pair[pair.index(after: $0)...] } ?? []
            guard let name = PercentDecoding.decode(rawName), let value = PercentDecoding.decode(rawValue) else {
                return .failure(GraphQLRequestError("Query string is not valid: bad percent-escape or UTF-8"))
            }
            pairs.append((name: name, value: value))
        }
        return .success(pairs)
    }
}
