#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failure of the demo backend's sockets, worded for the operator who started `gatehouse demo`.
struct DemoBackendError: Error, CustomStringConvertible {
    var description: String
}

/// Plain blocking POSIX sockets for the demo backend. The demo backend is a fixture, so it keeps
/// to the simplest calls: one listening socket, one blocking socket per connection.
enum DemoSocket {
    // MARK: - Listening

    /// Binds and listens on `host:port` (an IPv4 or IPv6 literal, or a resolvable name).
    static func listen(host: String, port: Int) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw DemoBackendError(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }

        var lastError = EADDRNOTAVAIL
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
                            info.pointee.ai_protocol)
            if fd < 0 { lastError = errno; continue }
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, Glibc.listen(fd, 128) == 0 {
                return fd
            }
            lastError = errno
            close(fd)
        }
        throw DemoBackendError(description: "cannot listen on \(host):\(port): \(errorText(lastError))")
    }

    /// Waits for the next connection; nil once the listening socket was shut down or closed.
    static func accept(listener: Int32) -> Int32? {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            if fd >= 0 {
                var one: Int32 = 1
                _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return fd
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO:
                continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                // Out of descriptors for a moment: back off instead of spinning.
                usleep(50_000)
            default:
                return nil
            }
        }
    }

    // MARK: - Connections

    /// Gives up on a connection that sends nothing for this long, so idle keep-alive clients
    /// cannot pin threads forever.
    static func setReceiveTimeout(_ fd: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads what is available into `buffer`; 0 on end of stream, nil on error or timeout.
    static func receive(_ fd: Int32, into buffer: inout [UInt8], maxBytes: Int = 64 * 1024) -> Int? {
        var chunk = [UInt8](repeating: 0, count: maxBytes)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count >= 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return count
            }
            if errno == EINTR { continue }
            return nil
        }
    }

    /// Writes all of `bytes`; false when the peer went away.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
