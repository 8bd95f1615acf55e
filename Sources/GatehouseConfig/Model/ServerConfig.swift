import Glibc

/// `server:` — the client-facing listener, its limits and timeouts.
public struct ServerConfig: Sendable, Equatable {
    public var listen = HostPort(host: "0.0.0.0", port: 8080)
    /// Event-loop threads; 0 means one per CPU core.
    public var workers = 0
    public var maxConnections = 10_000
    public var headerTimeout: Duration = .seconds(10)
    public var bodyTimeout: Duration = .seconds(30)
    public var idleTimeout: Duration = .seconds(60)
    public var maxRequestLine = 8 * 1024
    public var maxHeaderBytes = 32 * 1024
    public var maxHeaders = 100
    public var maxBodyBytes = 10 * 1024 * 1024
    public var drainTimeout: Duration = .seconds(20)
    /// Request bodies are read whole before an upstream is taken: this much in memory, the rest
    /// in an unlinked file in `tempDirectory`.
    public var requestBuffer = 1024 * 1024
    public var tempDirectory = ServerConfig.systemTempDirectory
    /// Bytes per second a streamed request body (`request_buffering: false`) must keep up,
    /// averaged over 5 s after a 5 s grace; 0 disables the check.
    public var minBodyRate = 1024
    public var trustedProxies: [CIDR] = []
    /// nil when disabled (`admin_listen: ""`).
    public var adminListen: HostPort? = HostPort(host: "127.0.0.1", port: 9901)
    public var accessLog: AccessLogTarget = .stdout
    /// nil: the listener speaks plain HTTP.
    public var tls: ServerTLSConfig?
    public var compression = CompressionConfig()

    public init() {}

    /// `$TMPDIR`, else /tmp.
    public static var systemTempDirectory: String {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }
}

/// `host:port` or `[v6]:port`; the host is kept without brackets.
public struct HostPort: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Where access-log lines go.
public enum AccessLogTarget: Sendable, Equatable {
    case stdout
    case off
    case file(String)
}

/// An IPv4 or IPv6 network in CIDR notation (`10.0.0.0/8`, `::1/128`; a bare address is a /32 or /128).
public struct CIDR: Sendable, Equatable, CustomStringConvertible {
    /// The network address: 4 bytes for IPv4, 16 for IPv6.
    public var address: [UInt8]
    public var prefixLength: Int

    public init(address: [UInt8], prefixLength: Int) {
        self.address = address
        self.prefixLength = prefixLength
    }

    /// True when `candidate` (4 or 16 address bytes) lies in this network.
    public func contains(_ candidate: [UInt8]) -> Bool {
        guard candidate.count == address.count else { return false }
        var bits = prefixLength
        var index = 0
        while bits > 0 {
            let mask: UInt8 = bits >= 8 ? 0xFF : UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if candidate[index] & mask != address[index] & mask { return false }
            bits -= 8
            index += 1
        }
        return true
    }

    public var description: String {
        let text: String
        if address.count == 4 {
            text = address.map(String.init).joined(separator: ".")
        } else {
            text = stride(from: 0, to: 16, by: 2)
                .map { String(UInt16(address[$0]) << 8 | UInt16(address[$0 + 1]), radix: 16) }
                .joined(separator: ":")
        }
        return "\(text)/\(prefixLength)"
    }
}
