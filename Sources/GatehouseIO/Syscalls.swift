import CLinux
import Glibc

/// The one place for system calls. EINTR is retried here; EAGAIN is a value (`.wouldBlock`),
/// never an error; every other failure is `.failed(errno)`.
public enum IOResult: Equatable, Sendable {
    case done(Int)
    case wouldBlock
    case failed(Int32)
}

public enum Syscalls {
    @inline(__always)
    public static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> IOResult {
        while true {
            let n = Glibc.read(fd, buffer, count)
            if n >= 0 { return .done(n) }
            let err = errno
            if err == EINTR { continue }
            if err == EAGAIN || err == EWOULDBLOCK { return .wouldBlock }
            return .failed(err)
        }
    }

    @inline(__always)
    public static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> IOResult {
        while true {
            let n = Glibc.send(fd, buffer, count, Int32(MSG_NOSIGNAL))
            if n >= 0 { return .done(n) }
            let err = errno
            if err == EINTR { continue }
            if err == EAGAIN || err == EWOULDBLOCK { return .wouldBlock }
            return .failed(err)
        }
    }

    /// Writes several buffers in one call (head and body together).
    @inline(__always)
    public static func writev(_ fd: Int32, _ iov: UnsafePointer<iovec>, _ count: Int32) -> IOResult {
        while true {
            var header = msghdr()
            header.msg_iov = UnsafeMutablePointer(mutating: iov)
            header.msg_iovlen = Int(count)
            let n = Glibc.sendmsg(fd, &header, Int32(MSG_NOSIGNAL))
            if n >= 0 { return .done(n) }
            let err = errno
            if err == EINTR { continue }
            if err == EAGAIN || err == EWOULDBLOCK { return .wouldBlock }
            return .failed(err)
        }
    }

    /// Writes all of `count` bytes at `offset` of a regular file (short writes continued).
    public static func pwriteAll(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, at offset: Int) -> IOResult {
        var written = 0
        while written < count {
            let n = Glibc.pwrite(fd, buffer + written, count - written, off_t(offset + written))
            if n > 0 {
                written += n
                continue
            }
            let err = errno
            if n < 0 && err == EINTR { continue }
            return .failed(n == 0 ? EIO : err)
        }
        return .done(written)
    }

    /// Reads up to `count` bytes at `offset` of a regular file.
    public static func pread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, at offset: Int) -> IOResult {
        while true {
            let n = Glibc.pread(fd, buffer, count, off_t(offset))
            if n >= 0 { return .done(n) }
            let err = errno
            if err == EINTR { continue }
            return .failed(err)
        }
    }

    /// An unlinked temporary file in `directory`, gone when its descriptor closes.
    public static func openUnlinkedTempFile(in directory: String) -> IOResult {
        let fd = gh_open_unlinked_tmpfile(directory)
        return fd >= 0 ? .done(Int(fd)) : .failed(errno)
    }

    public static func close(_ fd: Int32) {
        // Linux releases the descriptor even when close reports EINTR; never retry.
        _ = Glibc.close(fd)
    }

    /// Accepts one connection: the new descriptor (non-blocking, close-on-exec) and the peer address.
    public static func accept(_ fd: Int32) -> (IOResult, SocketAddress?) {
        var storage = sockaddr_storage()
        var length = socklen_t(0)
        while true {
            let client = gh_accept4(fd, &storage, &length)
            if client >= 0 { return (.done(Int(client)), SocketAddress(storage: storage)) }
            let err = errno
            if err == EINTR || err == ECONNABORTED { continue }
            if err == EAGAIN || err == EWOULDBLOCK { return (.wouldBlock, nil) }
            return (.failed(err), nil)
        }
    }

    /// Starts a non-blocking connect: `.done(fd)` when connected at once or in progress
    /// (wait for writability and then check `socketError`).
    public static func connect(to address: SocketAddress) -> IOResult {
        let fd = gh_socket_nonblocking(Int32(address.family), Int32(SOCK_STREAM.rawValue))
        if fd < 0 { return .failed(errno) }
        var storage = address.storage
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, address.length)
            }
        }
        if result == 0 || errno == EINPROGRESS {
            _ = gh_tcp_nodelay(fd)
            return .done(Int(fd))
        }
        let err = errno
        Glibc.close(fd)
        return .failed(err)
    }

    public static func socketError(_ fd: Int32) -> Int32 { gh_socket_error(fd) }

    public static func shutdownWrite(_ fd: Int32) { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Sets SO_LINGER to 0 so that close sends a reset (for connections whose state is doubtful).
    public static func setLingerZero(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    public static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
