/// `upstreams.<name>.tls.server_name`: the name sent as SNI and checked against the upstream's
/// certificate. A DNS host name (RFC 1123) without a trailing dot, since SNI carries none
/// (RFC 6066 §3), or an IPv4/IPv6 literal, which is checked against the certificate's IP
/// addresses and not sent as SNI.
enum TLSServerNameSyntax {
    static func problem(in name: String) -> ValueProblem? {
        if IPAddressSyntax.address(name) != nil || IPAddressSyntax.isHostName(name) && !name.hasSuffix(".") {
            return nil
        }
        if name.hasPrefix("["), name.hasSuffix("]"), IPAddressSyntax.ipv6(String(name.dropFirst().dropLast())) != nil {
            return ValueProblem("write the IPv6 address without brackets: \"\(name.dropFirst().dropLast())\"")
        }
        if name.hasSuffix("."), IPAddressSyntax.isHostName(String(name.dropLast())) {
            return ValueProblem("write the name without a trailing dot: \"\(name.dropLast())\"")
        }
        return ValueProblem("\"\(name)\" is not a DNS name or IP address")
    }
}
