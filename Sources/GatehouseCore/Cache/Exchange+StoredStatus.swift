import GatehouseHTTP
import GatehouseIO

/// `Cache-Status: gatehouse; fwd=miss; stored` (RFC 9211 `stored`): said only of a response the
/// cache does store, and whether it does is known only once the body is whole (JSON without
/// top-level `errors`, within `max_entry_size`). So a miss whose head may be stored holds its
/// head until the body is in — a body the capture keeps in memory anyway, bounded by
/// `max_entry_size` — then the head goes out with the verdict and the body streams as usual.
/// Streamed responses (SSE, multipart) are never stored and never held.
extension Exchange {
    /// What the upstream input holds of the response body so far.
    private enum HeldCacheBody {
        case incomplete
        case whole([UInt8])
        /// Past `max_entry_size`, truncated or unreadable: it will not be stored.
        case unstorable
    }

    /// After the head was judged: true when it waits for its body (`.holdingResponse(until: .cacheVerdict)`).
    func holdsResponseHeadForCacheStatus(_ response: ResponseHead) -> Bool {
        cacheWork?.capture?.overflowed == false && response.framing != .none && !StreamedResponse.isStreamed(response)
    }

    /// A head judged storable whose Content-Length body is already all in (most small answers,
    /// which come in one read with their head): the verdict is given at once and the head need
    /// not be held. True when it was given.
    func settlesCacheStatusAtOnce(_ upstream: UpstreamConnection) -> Bool {
        guard heldBodyIsWhole(upstream) else { return false }
        settleCacheStatus()
        return true
    }

    /// Called as upstream input arrives while held: true once the head may go (it was written).
    func releaseHeadHeldForCacheStatus(_ upstream: UpstreamConnection) -> Bool {
        if !heldBodyIsWhole(upstream) {
            if upstreamEOF {
                // Cut short: nothing of the response went out yet, so the client gets the envelope.
                if case .incomplete = heldCacheBody(upstream) { return failTruncated() }
            } else {
                // A Content-Length body within the limit is whole once that many bytes are held:
                // counted, not copied.
                if case .length(let length) = responseBody, length <= (cacheWork?.capture?.limit ?? 0) { return false }
                if case .incomplete = heldCacheBody(upstream) { return false }
            }
        }
        return letHeldResponseThrough()
    }

    /// Just before a held head goes out: the miss's `Cache-Status` says `stored` when the whole
    /// body is in and may be stored.
    func settleCacheStatus() {
        guard let upstream, cacheWork?.capture?.overflowed == false, let limit = cacheWork?.capture?.limit else { return }
        let accepted: Bool
        if heldBodyIsWhole(upstream), case .length(let length) = responseBody {
            // Judged where it lies in the upstream's buffer: the capture copies it once, as it is pumped.
            accepted = CacheStorability.acceptsBody(UnsafeRawBufferPointer(rebasing: upstream.input.readable.prefix(length)),
                                                    maxEntrySize: limit)
        } else if case .whole(let body) = heldCacheBody(upstream) {
            accepted = CacheStorability.acceptsBody(body, maxEntrySize: limit)
        } else {
            return
        }
        guard accepted else { return }
        cacheWork?.capture?.bodyAccepted = true
        cacheStatusLine?.stored = true
    }

    /// A Content-Length body within the limit whose bytes are all held: whole, known by counting.
    private func heldBodyIsWhole(_ upstream: UpstreamConnection) -> Bool {
        guard case .length(let length) = responseBody else { return false }
        return length <= (cacheWork?.capture?.limit ?? 0) && upstream.input.readable.count >= length
    }

    private func heldCacheBody(_ upstream: UpstreamConnection) -> HeldCacheBody {
        let held = upstream.input.readable
        let limit = cacheWork?.capture?.limit ?? 0
        switch responseBody {
        case .none:
            return .whole([])
        case .length(let length):
            if length > limit { return .unstorable }
            return held.count >= length ? .whole(Array(held.prefix(length))) : .incomplete
        case .chunked:
            guard case .data(let data, let ended) = Self.dechunk(held), data.count <= limit else { return .unstorable }
            return ended ? .whole(data) : .incomplete
        case .untilClose:
            if held.count > limit { return .unstorable }
            return upstreamEOF ? .whole(Array(held)) : .incomplete
        }
    }
}
