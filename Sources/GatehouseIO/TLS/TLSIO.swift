/// The outcome of one non-blocking TLS read or write.
///
/// `done(0)` from a read means the peer closed (close_notify, or an EOF without one, which HTTP's
/// own framing judges). A read may ask for writability and a write for readability (TLS 1.3 key
/// updates, post-handshake messages): wait for what is asked, then repeat the same call.
public enum TLSIO: Equatable, Sendable {
    case done(Int)
    case wantRead
    case wantWrite
    case failed(TLSError)
}
