import GatehouseIO

/// The `Cache-Status` line (RFC 9211) a cached route gives every response it does not answer
/// from the cache — whoever writes the head (the upstream's, an error envelope) — kept as what
/// it says and written with the head (`Exchange+ExtraFields.swift`). A miss that is stored says
/// so once its body is judged (`Exchange+StoredStatus.swift`); a stale answer replaces the line
/// with its own.
struct CacheStatusLine: Equatable {
    enum Forward: Equatable {
        /// The request is not cacheable (a mutation, `no-store`, no operation to key on).
        case bypass
        /// The store cannot be asked (`Exchange+StoreDown.swift`).
        case storeDown
        /// Nothing fresh was stored.
        case miss
        /// The request asked for the server's answer (`no-cache`).
        case request
        /// Not forwarded: the request allowed only a stored answer (`only-if-cached`) and none
        /// was fresh, so it got the 504 `CACHE_MISS`.
        case onlyIfCached
    }

    var forward: Forward
    /// Said only of a response the cache does store (`; stored`).
    var stored = false

    /// The whole line in one literal: every response of a cached route carries one.
    var text: StaticString {
        switch (forward, stored) {
        case (.bypass, _): "Cache-Status: gatehouse; fwd=bypass\r\n"
        case (.storeDown, _): "Cache-Status: gatehouse; fwd=bypass; detail=store-down\r\n"
        case (.miss, false): "Cache-Status: gatehouse; fwd=miss\r\n"
        case (.miss, true): "Cache-Status: gatehouse; fwd=miss; stored\r\n"
        case (.request, false): "Cache-Status: gatehouse; fwd=request\r\n"
        case (.request, true): "Cache-Status: gatehouse; fwd=request; stored\r\n"
        case (.onlyIfCached, _): "Cache-Status: gatehouse; detail=only-if-cached\r\n"
        }
    }

    func write(to out: inout ByteBuffer) {
        out.append(text)
    }
}
