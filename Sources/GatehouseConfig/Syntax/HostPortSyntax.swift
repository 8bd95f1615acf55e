/// `host:port` and `[v6]:port`, for listeners. The host is an IPv4 address, a bracketed IPv6
/// address or a host name; the port is 0–65535 (0: any free port).
public enum HostPortSyntax {
    public static func parse(_ text: String) -> Result<HostPort, ValueProblem> {
        let shape = ValueProblem("expected host:port or [v6]:port, got \"\(text)\"")
        let host: String
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return .failure(shape) }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return .failure(shape) }
            portText = rest.dropFirst()
            guard IPAddressSyntax.ipv6(host) != nil else {
                return .failure(ValueProblem("\"\(host)\" in \"\(text)\" is not an IPv6 address"))
            }
        } else {
            guard let colon = text.lastIndex(of: ":") else { return .failure(shape) }
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            if host.contains(":") {
                return .failure(ValueProblem("IPv6 addresses need brackets: [\(host)]:\(portText)"))
            }
            guard !host.isEmpty else {
                return .failure(ValueProblem("\"\(text)\" has no host; write e.g. 0.0.0.0\(text) for every address"))
            }
            guard IPAddressSyntax.ipv4(host) != nil || IPAddressSyntax.isHostName(host) else {
                return .failure(ValueProblem("\"\(host)\" is not an IP address or host name"))
            }
        }
        switch PortSyntax.parse(portText, allowZero: true) {
        case .success(let port): return .success(HostPort(host: host, port: port))
        case .failure(let problem): return .failure(problem)
        }
    }
}

/// A decimal TCP port.
enum PortSyntax {
    static func parse(_ text: Substring, allowZero: Bool) -> Result<Int, ValueProblem> {
        let lowest = allowZero ? 0 : 1
        guard !text.isEmpty, text.count <= 5, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let port = Int(text), port >= lowest, port <= 65535 else {
            return .failure(ValueProblem("invalid port \"\(text)\" (\(lowest)-65535)"))
        }
        return .success(port)
    }
}
