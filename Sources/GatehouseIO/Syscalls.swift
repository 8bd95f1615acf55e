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
    /// The one EINTR loop: runs `call` (a system call returning -1 with errno on failure) until
    /// it is not interrupted, and turns its result into an `IOResult`.
    @inline(__always)
    static func retryingInterrupts(_ call: () -> Int) -> IOResult {
        while true {
            let n = call()
            if n >= 0 { return .done(n) }
            let err = errno
            if err == EINTR { continue }
            if err == EAGAIN || err == EWOULDBLOCK { return .wouldBlock }
            return .failed(err)
        }
    }

    /// read(2), for files and other descriptors that are not sockets.
    @inline(__always)
    public static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> IOResult {
        retryingInterrupts { gh_read_nocancel(fd, buffer, count) }
    }

    /// recv(2), for sockets: the socket layer directly, without read(2)'s file layer.
    @inline(__always)
    public static func receive(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> IOResult {
        retryingInterrupts { gh_recv_nocancel(fd, buffer, count) }
    }

    @inline(__always)
    public static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> IOResult {
        retryingInterrupts { gh_send_nocancel(fd, buffer, count) }
    }

    /// One send of `first` then `second` (sendmsg with two iovecs): a response head and a body
    /// that lies elsewhere go out together without being copied into one buffer first.
    @inline(__always)
    public static func write(_ fd: Int32, _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> IOResult {
        retryingInterrupts { gh_send2_nocancel(fd, first.baseAddress, first.count, second.baseAddress, second.count) }
    }

    /// write(2), for descriptors that are not sockets (files, standard error).
    public static func writeFile(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> IOResult {
        retryingInterrupts { Glibc.write(fd, buffer, count) }
    }

    /// Writes all of `count` bytes at `offset` of a regular file (short writes continued).
    public static func pwriteAll(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, at offset: Int) -> IOResult {
        var written = 0
        while written < count {
            let result = retryingInterrupts {
                Glibc.pwrite(fd, buffer + written, count - written, off_t(offset + written))
            }
            switch result {
            case .done(0): return .failed(EIO)
            case .done(let n): written += n
            case .wouldBlock: return .failed(EAGAIN)
            case .failed: return result
            }
        }
        return .done(written)
    }

    /// Reads up to `count` bytes at `offset` of a regular file.
    public static func pread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, at offset: Int) -> IOResult {
        retryingInterrupts { Glibc.pread(fd, buffer, count, off_t(offset)) }
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
    /// (wait for writability and then check `connectError`).
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

    /// The outcome of a non-blocking connect once the socket is writable: 0, or the errno. A
    /// connect to a local port in the ephemeral range with nothing listening can be given that
    /// very port as its source and connect to itself (TCP simultaneous open): the gateway would
    /// read its own request as the response, and hold the port the upstream needs to start.
    /// That is reported as ECONNREFUSED, what the connect would otherwise have met.
    public static func connectError(_ fd: Int32) -> Int32 { gh_connect_error(fd) }

    /// Binds `fd` to `address`; 0 on success, else errno.
    public static func bind(_ fd: Int32, to address: SocketAddress) -> Int32 {
        var storage = address.storage
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, address.length) }
        }
        return result == 0 ? 0 : errno
    }

    /// Starts listening; 0 on success, else errno.
    public static func listen(_ fd: Int32, backlog: Int32) -> Int32 {
        Glibc.listen(fd, backlog) == 0 ? 0 : errno
    }

    /// Opens a file (close-on-exec always added), retrying EINTR.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) -> IOResult {
        retryingInterrupts { Int(Glibc.open(path, flags | O_CLOEXEC, mode)) }
    }

    public static func shutdownWrite(_ fd: Int32) { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Sets SO_LINGER to 0 so that close sends a reset (for connections whose state is doubtful).
    public static func setLingerZero(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    public static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
