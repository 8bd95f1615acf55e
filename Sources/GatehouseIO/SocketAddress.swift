import CLinux
import Glibc

/// An IPv4 or IPv6 socket address.
public struct SocketAddress: @unchecked Sendable {
    public var storage: sockaddr_storage
    public var length: socklen_t

    public init?(storage: sockaddr_storage) {
        self.storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET: length = socklen_t(MemoryLayout<sockaddr_in>.size)
        case AF_INET6: length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        default: return nil
        }
    }

    /// A numeric host (v4 or v6, without brackets) and port; nil when the host is not numeric.
    public init?(host: String, port: Int) {
        var storage = sockaddr_storage()
        let length = gh_make_address(host, Int32(port), &storage)
        if length < 0 { return nil }
        self.storage = storage
        self.length = socklen_t(length)
    }

    /// Resolves a host name (blocking; only used when loading a configuration).
    public static func resolve(host: String, port: Int) -> SocketAddress? {
        if let numeric = SocketAddress(host: host, port: port) { return numeric }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let first = result else { return nil }
        defer { freeaddrinfo(result) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { dest in
            dest.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        return SocketAddress(storage: storage)
    }

    /// Every IPv4 and IPv6 address a host name resolves to, in resolver order, without repeats
    /// (blocking: called when loading a configuration and from the resolver thread, never on a loop).
    public static func resolveAll(host: String, port: Int) -> [SocketAddress] {
        if let numeric = SocketAddress(host: host, port: port) { return [numeric] }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0 else { return [] }
        defer { freeaddrinfo(result) }
        var addresses: [SocketAddress] = []
        var seen = Set<[UInt8]>()
        var entry = result
        while let info = entry {
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { dest in
                dest.copyMemory(from: UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(info.pointee.ai_addrlen)))
            }
            if let address = SocketAddress(storage: storage), seen.insert(address.addressBytes).inserted {
                addresses.append(address)
            }
            entry = info.pointee.ai_next
        }
        return addresses
    }

    public var family: Int { Int(storage.ss_family) }

    /// The address as text ("127.0.0.1", "::1") and its port.
    public var hostAndPort: (String, Int) {
        var buffer = [CChar](repeating: 0, count: 64)
        var port: Int32 = 0
        var copy = storage
        let n = gh_format_address(&copy, &buffer, 64, &port)
        guard n > 0 else { return ("?", 0) }
        return (String(decoding: buffer[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self), Int(port))
    }

    /// The raw address bytes: 4 for IPv4, 16 for IPv6 (IPv4-mapped IPv6 addresses become 4).
    public var addressBytes: [UInt8] {
        var copy = storage
        return withUnsafeBytes(of: &copy) { raw -> [UInt8] in
            if family == Int(AF_INET) {
                let offset = MemoryLayout<sockaddr_in>.offset(of: \sockaddr_in.sin_addr)!
                return Array(raw[offset..<offset + 4])
            }
            let offset = MemoryLayout<sockaddr_in6>.offset(of: \sockaddr_in6.sin6_addr)!
            let bytes = Array(raw[offset..<offset + 16])
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                return Array(bytes[12..<16])
            }
            return bytes
        }
    }
}
