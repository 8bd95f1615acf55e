import COpenSSL
import Glibc

/// The OpenSSL BIO method TLS connections read and write their socket through. It sends every
/// byte through `Syscalls` — so EINTR is retried, writes never raise SIGPIPE (MSG_NOSIGNAL) and
/// EAGAIN becomes OpenSSL's "retry" — instead of OpenSSL's own socket BIO, which calls
/// read/write itself. The BIO does not own its descriptor.
struct TLSSocketBIO: @unchecked Sendable {
    // Unchecked Sendable: the BIO_METHOD is filled in once, before `shared` is published, and
    // only read afterwards; OpenSSL creates BIOs from one method on many threads at once.
    let method: OpaquePointer

    /// Created on first use (Swift initialises globals once, thread-safely) and kept for the life of
    /// the process: every BIO made from it must be able to outlive any one TLS context.
    static let shared = TLSSocketBIO()

    private init() {
        let type = BIO_get_new_index() | BIO_TYPE_SOURCE_SINK
        guard let method = BIO_meth_new(type, "gatehouse socket") else {
            preconditionFailure("BIO_meth_new failed: out of memory")
        }
        _ = BIO_meth_set_read_ex(method) { bio, data, count, done in
            TLSSocketBIO.read(bio, data, count, done)
        }
        _ = BIO_meth_set_write_ex(method) { bio, data, count, done in
            TLSSocketBIO.write(bio, data, count, done)
        }
        _ = BIO_meth_set_ctrl(method) { _, command, _, _ in
            // Only flush matters to the TLS layer; the socket has no user-space buffer to flush.
            command == BIO_CTRL_FLUSH || command == BIO_CTRL_DUP ? 1 : 0
        }
        self.method = method
    }

    /// A BIO on `fd`; the caller hands it to `SSL_set_bio`, which then owns it.
    func makeBIO(fd: Int32) -> OpaquePointer? {
        guard let bio = BIO_new(method) else { return nil }
        // The descriptor travels in the BIO's data pointer, offset by one so that fd 0 is not nil.
        BIO_set_data(bio, UnsafeMutableRawPointer(bitPattern: Int(fd) + 1))
        BIO_set_init(bio, 1)
        return bio
    }

    // MARK: - Callbacks

    private static let retryFlags = Int32(BIO_FLAGS_READ | BIO_FLAGS_WRITE | BIO_FLAGS_IO_SPECIAL | BIO_FLAGS_SHOULD_RETRY)

    private static func descriptor(_ bio: OpaquePointer?) -> Int32 {
        Int32(truncatingIfNeeded: Int(bitPattern: BIO_get_data(bio)) - 1)
    }

    /// Returns 1 with the byte count, or 0: EOF (no retry flag), would block (retry flag set) or a
    /// failure (errno set, which OpenSSL reports as SSL_ERROR_SYSCALL).
    private static func read(_ bio: OpaquePointer?, _ data: UnsafeMutablePointer<CChar>?, _ count: Int,
                             _ done: UnsafeMutablePointer<Int>?) -> Int32 {
        BIO_clear_flags(bio, retryFlags)
        guard let data else { return 0 }
        switch Syscalls.receive(descriptor(bio), data, count) {
        case .done(let n):
            done?.pointee = n
            return n > 0 ? 1 : 0
        case .wouldBlock:
            BIO_set_flags(bio, Int32(BIO_FLAGS_READ | BIO_FLAGS_SHOULD_RETRY))
            return 0
        case .failed(let code):
            errno = code
            return 0
        }
    }

    private static func write(_ bio: OpaquePointer?, _ data: UnsafePointer<CChar>?, _ count: Int,
                              _ done: UnsafeMutablePointer<Int>?) -> Int32 {
        BIO_clear_flags(bio, retryFlags)
        guard let data else { return 0 }
        switch Syscalls.write(descriptor(bio), data, count) {
        case .done(let n):
            done?.pointee = n
            return 1
        case .wouldBlock:
            BIO_set_flags(bio, Int32(BIO_FLAGS_WRITE | BIO_FLAGS_SHOULD_RETRY))
            return 0
        case .failed(let code):
            errno = code
            return 0
        }
    }
}
