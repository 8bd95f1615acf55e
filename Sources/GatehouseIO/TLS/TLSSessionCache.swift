import COpenSSL

/// The most recent TLS session for one upstream on one worker, so that the next connection resumes
/// it instead of running a full handshake. A client `TLSContext` stores every session OpenSSL
/// establishes for a connection made with this cache: at the end of a TLS 1.2 handshake, and when
/// TLS 1.3 session tickets arrive (they follow the handshake and are picked up by the next read).
/// Used on its worker's loop thread only.
public final class TLSSessionCache {
    /// One owned reference, or nil.
    private var session: OpaquePointer?

    public init() {}

    deinit {
        if let session { SSL_SESSION_free(session) }
    }

    /// True when a session is held that a new connection can offer for resumption.
    public var hasSession: Bool { resumableSession != nil }

    /// Forgets the held session (for instance after the upstream's TLS settings changed).
    public func clear() {
        if let session { SSL_SESSION_free(session) }
        session = nil
    }

    /// Takes ownership of one reference to `newSession`, releasing the previous one.
    func store(_ newSession: OpaquePointer) {
        if let session { SSL_SESSION_free(session) }
        session = newSession
    }

    /// The held session, unless OpenSSL says it cannot be resumed (a TLS 1.3 session before its ticket).
    var resumableSession: OpaquePointer? {
        guard let session, SSL_SESSION_is_resumable(session) == 1 else { return nil }
        return session
    }
}
