/// One `name=value` pair of a query string (`a=1&b=2`), found without decoding: a WebSocket
/// handshake's `token_from: query:NAME` token is read from it and cut from the URL forwarded.
public struct QueryParameter: Sendable, Equatable {
    /// The value's bytes, within the buffer searched.
    public let value: Range<Int>
    /// The whole pair, within the buffer searched.
    public let pair: Range<Int>

    /// The first pair named `name` (compared byte for byte) in `bytes[query]`.
    public static func find(_ name: [UInt8], in bytes: [UInt8], query: Range<Int>) -> QueryParameter? {
        var start = query.lowerBound
        while start <= query.upperBound {
            let end = bytes[start..<query.upperBound].firstIndex(of: UInt8(ascii: "&")) ?? query.upperBound
            let pair = start..<end
            if let equals = bytes[pair].firstIndex(of: UInt8(ascii: "=")), bytes[start..<equals].elementsEqual(name) {
                return QueryParameter(value: (equals + 1)..<end, pair: pair)
            }
            start = end + 1
        }
        return nil
    }

    /// The query string without this pair (and the `&` that joined it); empty when it was alone.
    public func queryRemoving(from bytes: [UInt8], query: Range<Int>) -> [UInt8] {
        var kept: [UInt8] = []
        kept.append(contentsOf: bytes[query.lowerBound..<pair.lowerBound])
        kept.append(contentsOf: bytes[min(pair.upperBound + 1, query.upperBound)..<query.upperBound])
        if pair.upperBound == query.upperBound, kept.last == UInt8(ascii: "&") { kept.removeLast() }
        return kept
    }
}
