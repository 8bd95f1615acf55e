import GatehouseIO

/// Turns an endpoint's host name into addresses. The system one is blocking and runs off the
/// event loops (at load and on the resolver thread); tests bring their own.
protocol HostResolver: Sendable {
    func resolve(host: String, port: Int) -> [SocketAddress]
}

/// getaddrinfo, after an optional hosts file named by `GATEHOUSE_HOSTS_FILE` (a test and
/// operations hook, README "Upstream endpoints and resilience"): a name listed there resolves to
/// its lines' addresses only, re-read on every resolution, so a test can move a name without DNS.
struct SystemHostResolver: HostResolver {
    static let hostsFileVariable = "GATEHOUSE_HOSTS_FILE"

    let hostsFile: String?

    init(hostsFile: String? = FileSystem.environment[Self.hostsFileVariable]) {
        self.hostsFile = hostsFile.flatMap { $0.isEmpty ? nil : $0 }
    }

    func resolve(host: String, port: Int) -> [SocketAddress] {
        if let hostsFile, let text = FileSystem.readText(hostsFile) {
            let listed = Self.addresses(of: host, inHostsFile: text).compactMap { SocketAddress(host: $0, port: port) }
            if !listed.isEmpty { return listed }
        }
        return SocketAddress.resolveAll(host: host, port: port)
    }

    /// The addresses of `host` in /etc/hosts syntax: "address name [alias…]", `#` comments.
    static func addresses(of host: String, inHostsFile text: String) -> [String] {
        var found: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, fields.dropFirst().contains(where: { $0 == host }) else { continue }
            found.append(String(fields[0]))
        }
        return found
    }
}
