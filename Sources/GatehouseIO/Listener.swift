import CLinux
import Glibc

/// A listening TCP socket. Each worker opens its own on the same address with SO_REUSEPORT, so
/// the kernel spreads new connections over the workers without a shared accept queue.
public enum Listener {
    public enum Failure: Error, CustomStringConvertible {
        case badAddress(String)
        case system(String, Int32)

        public var description: String {
            switch self {
            case .badAddress(let text): return "not a numeric address: \(text)"
            case .system(let call, let code): return "\(call): \(Syscalls.errorText(code))"
            }
        }
    }

    /// Fails when another process already listens on the address: SO_REUSEPORT would otherwise
    /// let a second gateway silently share the port with the first.
    public static func ensureAvailable(host: String, port: Int) throws(Failure) {
        guard let address = SocketAddress(host: host, port: port) else { throw .badAddress(host) }
        let fd = gh_socket_nonblocking(Int32(address.family), Int32(SOCK_STREAM.rawValue))
        if fd < 0 { throw .system("socket", errno) }
        defer { Syscalls.close(fd) }
        _ = gh_set_int_option(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        let bindError = Syscalls.bind(fd, to: address)
        if bindError != 0 { throw .system("bind \(host):\(port)", bindError) }
    }

    public static func open(host: String, port: Int, backlog: Int32 = 4096) throws(Failure) -> Int32 {
        guard let address = SocketAddress(host: host, port: port) else { throw .badAddress(host) }
        let fd = gh_socket_nonblocking(Int32(address.family), Int32(SOCK_STREAM.rawValue))
        if fd < 0 { throw .system("socket", errno) }
        if gh_reuseport(fd) != 0 {
            let err = errno
            Syscalls.close(fd)
            throw .system("setsockopt(SO_REUSEPORT)", err)
        }
        let bindError = Syscalls.bind(fd, to: address)
        if bindError != 0 {
            Syscalls.close(fd)
            throw .system("bind \(host):\(port)", bindError)
        }
        let listenError = Syscalls.listen(fd, backlog: backlog)
        if listenError != 0 {
            Syscalls.close(fd)
            throw .system("listen", listenError)
        }
        return fd
    }
}
