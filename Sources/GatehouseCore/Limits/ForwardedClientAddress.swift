import GatehouseConfig
import GatehouseHTTP

/// The client address a limit keyed by `ip` counts: the peer itself, or, when the peer is a
/// trusted proxy, the first hop in `X-Forwarded-For` that is not one, walking from the right.
/// Each trusted proxy appends the address it received from, so entries left of the first
/// untrusted one were written by the client and prove nothing.
enum ForwardedClientAddress {
    /// Tags the key material so an address that could not be parsed (kept as its text) never
    /// collides with a parsed one.
    static let addressTag: UInt8 = 0x01
    static let textTag: UInt8 = 0x02

    /// Appends the key material for the request's client to `key`.
    static func append(to key: inout [UInt8], head: RequestHead, peer: [UInt8], trustedProxies: [CIDR]) {
        guard !trustedProxies.isEmpty, trustedProxies.contains(where: { $0.contains(peer) }) else {
            return appendAddress(peer, to: &key)
        }
        var hops: [Substring] = []
        for field in head.headers where HeaderNames.asciiCaseInsensitiveEquals(head.bytes[field.name], HeaderNames.xForwardedFor) {
            let text = head.string(field.value)
            hops += text.split(separator: ",").map { $0.trimmingASCIISpaces }.filter { !$0.isEmpty }
        }
        var leftmost: [UInt8]?
        for hop in hops.reversed() {
            guard let address = IPAddressSyntax.address(String(hop)) else {
                // Not an address: what the nearest untrusted party wrote, counted as written.
                key.append(textTag)
                key.append(contentsOf: hop.utf8)
                return
            }
            if !trustedProxies.contains(where: { $0.contains(address) }) { return appendAddress(address, to: &key) }
            leftmost = address
        }
        // Every hop is a trusted proxy (or there is none): the farthest one is the client.
        appendAddress(leftmost ?? peer, to: &key)
    }

    private static func appendAddress(_ address: [UInt8], to key: inout [UInt8]) {
        key.append(addressTag)
        key.append(contentsOf: address)
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    fileprivate var trimmingASCIISpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
