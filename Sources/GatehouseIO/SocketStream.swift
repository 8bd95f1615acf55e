/// Reads and writes on a connected socket, in the clear or through TLS, with one result type.
/// Connections hold one of these and never look at which it is on the hot path.
public struct SocketStream {
    public enum Outcome: Equatable {
        /// Bytes moved; a read of 0 is the end of the stream.
        case done(Int)
        /// Nothing now: wait for readability (`needsWritable` false) or writability (true).
        case wouldBlock(needsWritable: Bool)
        case failed(String)
    }

    public let fd: Int32
    public let tls: TLSConnection?

    public init(fd: Int32, tls: TLSConnection? = nil) {
        self.fd = fd
        self.tls = tls
    }

    @inline(__always)
    public func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Outcome {
        guard let tls else {
            switch Syscalls.receive(fd, buffer, count) {
            case .done(let n): return .done(n)
            case .wouldBlock: return .wouldBlock(needsWritable: false)
            case .failed(let code): return .failed(Syscalls.errorText(code))
            }
        }
        switch tls.read(into: buffer, count: count) {
        case .done(let n): return .done(n)
        case .wantRead: return .wouldBlock(needsWritable: false)
        case .wantWrite: return .wouldBlock(needsWritable: true)
        case .failed(let error): return .failed(error.message)
        }
    }

    @inline(__always)
    public func write(from buffer: UnsafeRawPointer, count: Int) -> Outcome {
        guard let tls else {
            switch Syscalls.write(fd, buffer, count) {
            case .done(let n): return .done(n)
            case .wouldBlock: return .wouldBlock(needsWritable: true)
            case .failed(let code): return .failed(Syscalls.errorText(code))
            }
        }
        switch tls.write(from: buffer, count: count) {
        case .done(let n): return .done(n)
        case .wantRead: return .wouldBlock(needsWritable: false)
        case .wantWrite: return .wouldBlock(needsWritable: true)
        case .failed(let error): return .failed(error.message)
        }
    }

    /// Writes `first` then `second` in one send, on a connection in the clear; nil through TLS,
    /// whose records are written one buffer at a time (the caller copies instead).
    @inline(__always)
    public func write(_ first: UnsafeRawBufferPointer, then second: UnsafeRawBufferPointer) -> Outcome? {
        guard tls == nil else { return nil }
        switch Syscalls.write(fd, first, second) {
        case .done(let n): return .done(n)
        case .wouldBlock: return .wouldBlock(needsWritable: true)
        case .failed(let code): return .failed(Syscalls.errorText(code))
        }
    }

    /// Decrypted bytes wait inside TLS; epoll will not report them, so read again now.
    @inline(__always)
    public var hasBufferedInput: Bool { tls?.hasBufferedInput ?? false }

    /// Sends TLS close_notify when there is a session to close (best effort).
    public func shutdownTLS() { tls?.shutdown() }
}
