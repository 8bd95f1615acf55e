/// The outcome of one non-blocking handshake step. `wantRead`/`wantWrite` name the readiness the
/// event loop must wait for before calling `handshake()` again.
public enum TLSStep: Equatable, Sendable {
    case done
    case wantRead
    case wantWrite
    case failed(TLSError)
}
