/// What request and response heads share: one copy of the head's bytes, its fields as ranges
/// into them, and lookups over those fields. Extension methods on concrete heads, so no
/// existential is ever involved.
public protocol HTTPHead {
    var bytes: [UInt8] { get }
    var headers: [HeaderField] { get }
    /// Every token listed in `Connection` headers; the fields they name are hop-by-hop.
    var connectionOptions: [Range<Int>] { get }
}

extension HTTPHead {
    @inline(__always)
    public func bytes(_ range: Range<Int>) -> ArraySlice<UInt8> {
        bytes[range]
    }

    /// The value of the first header named `lowercaseName`, compared case-insensitively.
    public func headerValue(named lowercaseName: StaticString) -> Range<Int>? {
        HeaderLookup.firstValue(in: bytes, headers, named: lowercaseName)
    }

    /// Every header named `lowercaseName` as one list value (the lines joined with ", "), nil
    /// when there is none: what a list-valued field such as `Cache-Control` means.
    public func combinedValue(named lowercaseName: StaticString) -> ArraySlice<UInt8>? {
        HeaderLookup.combinedValue(in: bytes, headers, named: lowercaseName)
    }

    /// How many headers are named `lowercaseName`, compared case-insensitively.
    public func headerCount(named lowercaseName: StaticString) -> Int {
        HeaderLookup.count(in: bytes, headers, named: lowercaseName)
    }

    /// True when `field` must not be forwarded: hop-by-hop by definition or named in `Connection`.
    public func isHopByHop(_ field: HeaderField) -> Bool {
        HeaderLookup.isHopByHop(in: bytes, field, connectionOptions: connectionOptions)
    }

    /// The same, for a loop over the fields that already holds the head's bytes as `raw`: one
    /// access to the bytes per head, not one per field.
    @inline(__always)
    public func isHopByHop(_ field: HeaderField, in raw: UnsafeRawBufferPointer) -> Bool {
        HeaderLookup.isHopByHop(HeaderLookup.rebased(raw, field.name), in: raw, connectionOptions: connectionOptions)
    }

    /// The bytes of `range` as text, for logs and tests; not for the request path.
    public func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }
}
