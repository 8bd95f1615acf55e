/// Request headers that assert where a request came from or what host and URL it had. Backends
/// and frameworks believe them (rate limits and allow-lists by client IP, absolute URLs in
/// password-reset mail, IIS and Symfony routing by `X-Original-URL`), so only a trusted proxy may
/// send them; from anyone else they are dropped (README, "Hardening"). `Proxy` is dropped from
/// everyone: CGI turns it into `HTTP_PROXY`, the variable HTTP clients read their proxy from
/// (httpoxy, CVE-2016-5385).
///
/// Names match case-insensitively and with `_` read as `-`, because some servers (CGI, nginx
/// with `underscores_in_headers`, Werkzeug) treat `X_Real_IP` as `X-Real-IP`. The match is a
/// switch on the name's length first, so most headers cost one comparison of an integer.
public enum ClientAssertedHeaders {
    /// True when a client header with this name must not reach an upstream; `trustedPeer` says
    /// whether the connection comes from one of `server.trusted_proxies`.
    @inline(__always)
    public static func isDropped(_ name: UnsafeRawBufferPointer, trustedPeer: Bool) -> Bool {
        if name.count == 5 { return spelled(name, "proxy") }
        if trustedPeer { return false }
        return assertsClientOrURL(name)
    }

    /// `X-Forwarded` and every `X-Forwarded-*`, plus the names below, by length.
    private static func assertsClientOrURL(_ name: UnsafeRawBufferPointer) -> Bool {
        if name.count >= forwardedFamily.utf8CodeUnitCount && startsSpelled(name, forwardedFamily) {
            let count = forwardedFamily.utf8CodeUnitCount
            return name.count == count || folded(name[count]) == UInt8(ascii: "-")
        }
        switch name.count {
        case 6:
            return spelled(name, "x-host")
        case 9:
            return spelled(name, "forwarded") || spelled(name, "x-real-ip") || spelled(name, "client-ip")
                || spelled(name, "x-true-ip")
        case 11:
            return spelled(name, "x-client-ip") || spelled(name, "x-remote-ip")
        case 13:
            return spelled(name, "fly-client-ip") || spelled(name, "x-remote-addr") || spelled(name, "x-rewrite-url")
        case 14:
            return spelled(name, "true-client-ip") || spelled(name, "x-original-url")
                || spelled(name, "x-original-uri") || spelled(name, "x-proxyuser-ip")
        case 15:
            return spelled(name, "x-original-host")
        case 16:
            return spelled(name, "cf-connecting-ip") || spelled(name, "fastly-client-ip")
                || spelled(name, "x-originating-ip") || spelled(name, "x-azure-clientip")
        case 18:
            return spelled(name, "cf-connecting-ipv6")
        case 19:
            return spelled(name, "x-cluster-client-ip") || spelled(name, "x-appengine-user-ip")
        case 20:
            return spelled(name, "x-http-host-override")
        case 21:
            return spelled(name, "x-envoy-original-path")
        case 24:
            return spelled(name, "x-envoy-external-address") || spelled(name, "x-original-forwarded-for")
        case 25:
            return spelled(name, "x-custom-ip-authorization")
        default:
            return false
        }
    }

    /// `X-Forwarded-For`, `-Proto`, `-Host`, `-Port`, `-Prefix`, `-Server`, `-Ssl`, `-Scheme`, …
    private static let forwardedFamily: StaticString = "x-forwarded"

    /// ASCII lowercase with `_` read as `-`.
    @inline(__always)
    private static func folded(_ byte: UInt8) -> UInt8 {
        if byte == UInt8(ascii: "_") { return UInt8(ascii: "-") }
        return byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// True when `name` is `spelling` (lowercase, with `-`) up to case and `_`.
    @inline(__always)
    private static func spelled(_ name: UnsafeRawBufferPointer, _ spelling: StaticString) -> Bool {
        name.count == spelling.utf8CodeUnitCount && startsSpelled(name, spelling)
    }

    @inline(__always)
    private static func startsSpelled(_ name: UnsafeRawBufferPointer, _ spelling: StaticString) -> Bool {
        spelling.withUTF8Buffer { expected in
            var index = 0
            while index < expected.count {
                if folded(name[index]) != expected[index] { return false }
                index += 1
            }
            return true
        }
    }
}
