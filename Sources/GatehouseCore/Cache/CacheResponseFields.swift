import GatehouseHTTP

/// What the cache reads of an upstream response head, in one pass over its fields (a storable
/// miss asks it of every response): what decides storability (`Set-Cookie`, `Cache-Control`)
/// and which lines a hit repeats.
struct CacheResponseFields {
    private(set) var setsCookie = false
    private var cacheControl: Range<Int>?
    /// `Cache-Control` lines after the first: each counts (a `no-store` in a second line too).
    private var laterCacheControl: [Range<Int>] = []
    /// The kept lines' size as "Name: value\r\n".
    private var keptSize = 0
    /// Which of the first 64 fields are kept; a later field is asked again when written.
    private var keptFields: UInt64 = 0

    /// A field's part in the cache's reading.
    private enum Role {
        case kept
        /// A header a hit never repeats from the stored response: the gateway writes its own
        /// framing, validators, freshness and request id, and hop-by-hop fields are never stored.
        case unstored
        case setCookie
        case cacheControl
    }

    init(_ response: borrowing ResponseHead) {
        // Options named in `Connection` are rare: the field-by-field check runs only when there are some.
        let namesOptions = !response.connectionOptions.isEmpty
        response.bytes.withUnsafeBytes { raw in
            for (index, field) in response.headers.enumerated() {
                let name = UnsafeRawBufferPointer(rebasing: raw[field.name])
                switch Self.role(name) {
                case .setCookie:
                    setsCookie = true
                case .cacheControl:
                    if cacheControl == nil { cacheControl = field.value } else { laterCacheControl.append(field.value) }
                case .kept:
                    if namesOptions && response.isHopByHop(field, in: raw) { continue }
                    keptSize += field.name.count + field.value.count + 4
                    if index < UInt64.bitWidth { keptFields |= 1 << UInt64(index) }
                case .unstored:
                    continue
                }
            }
        }
    }

    /// Every `Cache-Control` line of `response` as one list value; nil when it has none.
    func cacheControlValue(of response: borrowing ResponseHead) -> ArraySlice<UInt8>? {
        cacheControl.map { FieldList.joined(response.bytes, first: $0, later: laterCacheControl) }
    }

    /// Told apart by length first: this is asked of every field of every storable miss.
    @inline(__always)
    private static func role(_ name: UnsafeRawBufferPointer) -> Role {
        @inline(__always) func named(_ candidate: StaticString) -> Bool {
            HeaderNames.asciiCaseInsensitiveEquals(name, candidate)
        }
        switch name.count {
        case 3: if named("age") { return .unstored }
        case 4: if named("date") || named("etag") { return .unstored }
        case 7: if named("expires") { return .unstored }
        case 10: if named("set-cookie") { return .setCookie }
        case 12: if named("x-request-id") { return .unstored }
        case 13:
            if named("cache-control") { return .cacheControl }
            if named("last-modified") { return .unstored }
        case 14: if named("content-length") { return .unstored }
        case 16: if named("content-encoding") { return .unstored }
        default: break
        }
        return HopByHop.isHopByHop(name) ? .unstored : .kept
    }

    /// The kept lines, "Name: value\r\n" each, appended to one allocation of their size and
    /// `reserved` bytes more (a capture's body). A line the upstream already wrote that way (as
    /// servers do) is copied whole; appending, not zeroing a block to overwrite, as zeroing was
    /// a byte-by-byte loop that cost more than the copies.
    func headerBlock(of response: borrowing ResponseHead, reservingAfter reserved: Int = 0) -> [UInt8] {
        guard keptSize + reserved > 0 else { return [] }
        var block: [UInt8] = []
        block.reserveCapacity(keptSize + reserved)
        response.bytes.withUnsafeBufferPointer { head in
            for (index, field) in response.headers.enumerated() {
                if index < UInt64.bitWidth {
                    guard keptFields & (1 << UInt64(index)) != 0 else { continue }
                } else {
                    let raw = UnsafeRawBufferPointer(head)
                    guard Self.role(UnsafeRawBufferPointer(rebasing: raw[field.name])) == .kept,
                          response.connectionOptions.isEmpty || !response.isHopByHop(field, in: raw) else { continue }
                }
                if field.isWrittenPlainly(in: UnsafeRawBufferPointer(head)) {
                    block.append(contentsOf: UnsafeBufferPointer(rebasing: head[field.line]))
                } else {
                    block.append(contentsOf: UnsafeBufferPointer(rebasing: head[field.name]))
                    block.append(UInt8(ascii: ":"))
                    block.append(UInt8(ascii: " "))
                    block.append(contentsOf: UnsafeBufferPointer(rebasing: head[field.value]))
                    block.append(0x0D)
                    block.append(0x0A)
                }
            }
        }
        return block
    }
}
