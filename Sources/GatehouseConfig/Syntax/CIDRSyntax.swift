/// `10.0.0.0/8`, `fd00::/8`, or a bare address (a /32 or /128). Host bits below the prefix are
/// cleared, so `10.1.2.3/8` is the network `10.0.0.0/8`, as nginx reads it.
public enum CIDRSyntax {
    public static func parse(_ text: String) -> Result<CIDR, ValueProblem> {
        let invalid = ValueProblem("invalid CIDR \"\(text)\"; write e.g. 10.0.0.0/8, fd00::/8 or 192.0.2.7")
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddressSyntax.address(String(parts[0])) else { return .failure(invalid) }
        let maximumPrefix = address.count * 8
        var prefixLength = maximumPrefix
        if parts.count == 2 {
            let prefixText = parts[1]
            guard !prefixText.isEmpty, prefixText.count <= 3,
                  prefixText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let prefix = Int(prefixText), prefix <= maximumPrefix else {
                return .failure(ValueProblem("invalid prefix length in \"\(text)\" (0-\(maximumPrefix))"))
            }
            prefixLength = prefix
        }
        return .success(CIDR(address: masked(address, prefixLength: prefixLength), prefixLength: prefixLength))
    }

    private static func masked(_ address: [UInt8], prefixLength: Int) -> [UInt8] {
        var network = address
        for index in network.indices {
            let bitsInByte = max(0, min(8, prefixLength - index * 8))
            let mask: UInt8 = bitsInByte == 8 ? 0xFF : UInt8(truncatingIfNeeded: 0xFF << (8 - bitsInByte))
            network[index] &= mask
        }
        return network
    }
}
