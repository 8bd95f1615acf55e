import GatehouseGraphQL

/// The answer to a mutation listed under `cache.invalidate`, kept (up to a bound) to tell whether
/// it did anything: a 200 whose body holds top-level `errors` and no `data` (a query that did not
/// validate, a resolver that failed before writing) changed nothing, so it drops no entries.
/// Anyone may send a failing mutation; counted as a success it would let any client keep
/// emptying the cache of the listed operations, on every route. Whatever cannot be told (a body
/// past the bound, not JSON, compressed) counts as a success: an entry dropped in vain costs one
/// upstream call, one kept in error serves stale data.
struct MutationAnswer {
    static let limit = 64 * 1024

    private var body: [UInt8] = []
    private var overflowed = false

    mutating func append(_ data: UnsafeRawBufferPointer) {
        guard !overflowed else { return }
        guard body.count + data.count <= Self.limit else {
            overflowed = true
            body = []
            return
        }
        body.append(contentsOf: data)
    }

    /// False only for a body that says the mutation failed: `errors` and no `data` (or `null`).
    var mayHaveChangedData: Bool {
        Self.mayHaveChangedData(overflowed ? nil : body)
    }

    static func mayHaveChangedData(_ body: [UInt8]?) -> Bool {
        guard let body, JSONReader.objectHasTopLevelKey(body, "errors") == true,
              let object = try? JSONReader.parse(body).objectValue else { return true }
        switch object["data"] {
        case nil, .null?: return false
        default: return true
        }
    }
}
