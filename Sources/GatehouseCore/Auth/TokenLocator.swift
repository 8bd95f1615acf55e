import GatehouseConfig
import GatehouseHTTP

/// Where a provider's token lies in a request head (`token_from`): the bytes of the token and,
/// for `query:NAME`, the parameter to leave out of the URL the upstream gets.
struct LocatedToken {
    var token: Range<Int>
    /// `name=value` plus one neighbouring `&`, within the request target.
    var queryParameter: Range<Int>?
    /// A bearer token whose characters are checked only if the verified-token cache does not
    /// hold it (`BearerToken.locate`).
    var isUncheckedBearer = false
}

/// The result of looking for a token.
enum TokenLookup {
    case found(LocatedToken)
    /// A source held something that is not a token (e.g. `Authorization: Basic …`).
    case malformed
    case absent
}

enum TokenLocator {
    /// The first source, in `token_from` order, that holds a value. A request that also carries
    /// a token in another of the sources is malformed: the gateway verifies one, and the upstream
    /// gets the other as well (only a verified query parameter is cut from the URL), which it
    /// might read instead.
    static func find(in head: RequestHead, sources: [TokenSource]) -> TokenLookup {
        let (lookup, foundAt) = firstToken(in: head, sources: sources)
        guard case .found = lookup, let foundAt else { return lookup }
        for (index, source) in sources.enumerated() where index != foundAt && holdsValue(source, in: head) {
            return .malformed
        }
        return lookup
    }

    private static func holdsValue(_ source: TokenSource, in head: RequestHead) -> Bool {
        head.bytes.withUnsafeBytes { raw in
            switch source {
            case .header:
                return head.authorization.value != nil
            case .cookie(let name):
                return head.headers.contains { field in
                    HeaderNames.asciiCaseInsensitiveEquals(UnsafeRawBufferPointer(rebasing: raw[field.name]), "cookie")
                        && cookieValue(raw, in: field.value, named: name) != nil
                }
            case .query(let name):
                guard let query = head.query else { return false }
                return queryNames(raw, in: query, name) > 0
            }
        }
    }

    /// The first source's lookup, and which source it was (nil: none holds a value).
    private static func firstToken(in head: RequestHead, sources: [TokenSource]) -> (TokenLookup, Int?) {
        head.bytes.withUnsafeBytes { raw -> (TokenLookup, Int?) in
            for (index, source) in sources.enumerated() {
                switch source {
                case .header:
                    guard let value = head.authorization.value else { continue }
                    guard let range = BearerToken.locate(in: UnsafeRawBufferPointer(rebasing: raw[value])) else {
                        return (.malformed, index)
                    }
                    return (.found(LocatedToken(token: (value.lowerBound + range.lowerBound)..<(value.lowerBound + range.upperBound),
                                                isUncheckedBearer: true)), index)
                case .cookie(let name):
                    var found: Range<Int>?
                    for field in head.headers
                    where HeaderNames.asciiCaseInsensitiveEquals(UnsafeRawBufferPointer(rebasing: raw[field.name]), "cookie") {
                        guard let value = cookieValue(raw, in: field.value, named: name) else { continue }
                        // A second cookie of the name is forwarded with the first: the upstream
                        // could read the one nobody verified.
                        if found != nil || cookieCount(raw, in: field.value, named: name) > 1 { return (.malformed, index) }
                        found = value
                    }
                    if let found { return (found.isEmpty ? .malformed : .found(LocatedToken(token: found)), index) }
                case .query(let name):
                    guard let query = head.query,
                          let (value, parameter) = queryValue(raw, in: query, named: name) else { continue }
                    // Only the verified parameter is cut from the URL: another of the name, or one
                    // spelled with percent-escapes the upstream decodes to it, would reach the
                    // upstream unverified (as a second Authorization header is refused).
                    if queryNamesTwice(raw, in: query, named: name) { return (.malformed, index) }
                    return (value.isEmpty ? .malformed : .found(LocatedToken(token: value, queryParameter: parameter)), index)
                }
            }
            return (.absent, nil)
        }
    }

    /// `NAME=value` in a Cookie header (RFC 6265 §4.2.1: pairs separated by "; "); a quoted value
    /// has its quotes left out.
    static func cookieValue(_ raw: UnsafeRawBufferPointer, in field: Range<Int>, named name: String) -> Range<Int>? {
        var found: Range<Int>?
        forEachCookiePair(raw, in: field) { pair in
            guard let value = value(raw, pair, named: name) else { return true }
            var trimmed = value
            while trimmed.upperBound > trimmed.lowerBound, raw[trimmed.upperBound - 1] == UInt8(ascii: " ") {
                trimmed = trimmed.lowerBound..<(trimmed.upperBound - 1)
            }
            if trimmed.count >= 2, raw[trimmed.lowerBound] == UInt8(ascii: "\""), raw[trimmed.upperBound - 1] == UInt8(ascii: "\"") {
                trimmed = (trimmed.lowerBound + 1)..<(trimmed.upperBound - 1)
            }
            found = trimmed
            return false
        }
        return found
    }

    /// How many pairs of one Cookie field are named `name`.
    static func cookieCount(_ raw: UnsafeRawBufferPointer, in field: Range<Int>, named name: String) -> Int {
        var count = 0
        forEachCookiePair(raw, in: field) { pair in
            if value(raw, pair, named: name) != nil { count += 1 }
            return true
        }
        return count
    }

    /// Each "name=value" pair of a Cookie field, leading blanks skipped, until `visit` says stop.
    private static func forEachCookiePair(_ raw: UnsafeRawBufferPointer, in field: Range<Int>, _ visit: (Range<Int>) -> Bool) {
        var start = field.lowerBound
        while start < field.upperBound {
            var end = start
            while end < field.upperBound, raw[end] != UInt8(ascii: ";") { end += 1 }
            var pairStart = start
            while pairStart < end, raw[pairStart] == UInt8(ascii: " ") || raw[pairStart] == UInt8(ascii: "\t") { pairStart += 1 }
            guard visit(pairStart..<end) else { return }
            start = end + 1
        }
    }

    /// `NAME=value` in a query string; returns the value and the parameter's span including one
    /// `&` next to it (so removing it leaves a well-formed query). Names and values are compared
    /// as sent: a JWT is base64url and never needs percent-encoding.
    static func queryValue(_ raw: UnsafeRawBufferPointer, in query: Range<Int>, named name: String) -> (Range<Int>, Range<Int>)? {
        var start = query.lowerBound
        while start <= query.upperBound {
            var end = start
            while end < query.upperBound, raw[end] != UInt8(ascii: "&") { end += 1 }
            if let value = value(raw, start..<end, named: name) {
                let parameter: Range<Int>
                if end < query.upperBound {
                    parameter = start..<(end + 1)
                } else if start > query.lowerBound {
                    parameter = (start - 1)..<end
                } else {
                    parameter = start..<end
                }
                return (value, parameter)
            }
            start = end + 1
        }
        return nil
    }

    /// Whether more than one parameter of the query string is named `name`, read as a server
    /// reads it: percent-escapes and `+` decoded.
    static func queryNamesTwice(_ raw: UnsafeRawBufferPointer, in query: Range<Int>, named name: String) -> Bool {
        queryNames(raw, in: query, name, stoppingAt: 2) > 1
    }

    /// How many parameters of the query string are named `name` once decoded (counting stops at
    /// `limit`).
    private static func queryNames(_ raw: UnsafeRawBufferPointer, in query: Range<Int>, _ name: String,
                                   stoppingAt limit: Int = 1) -> Int {
        var count = 0
        var start = query.lowerBound
        while start < query.upperBound, count < limit {
            var end = start
            while end < query.upperBound, raw[end] != UInt8(ascii: "&") { end += 1 }
            var nameEnd = start
            while nameEnd < end, raw[nameEnd] != UInt8(ascii: "=") { nameEnd += 1 }
            let written = Array(raw[start..<nameEnd])
            let decoded = written.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") })
                ? PercentDecoding.decode(written[...]) : String(decoding: written, as: UTF8.self)
            if decoded == name { count += 1 }
            start = end + 1
        }
        return count
    }

    private static func value(_ raw: UnsafeRawBufferPointer, _ pair: Range<Int>, named name: String) -> Range<Int>? {
        let nameBytes = name.utf8
        guard pair.count > nameBytes.count, raw[pair.lowerBound + nameBytes.count] == UInt8(ascii: "=") else { return nil }
        for (offset, byte) in nameBytes.enumerated() where raw[pair.lowerBound + offset] != byte { return nil }
        return (pair.lowerBound + nameBytes.count + 1)..<pair.upperBound
    }
}
