import COpenSSL
import Glibc

/// TLS over one non-blocking socket, driven by the event loop that owns the socket: call
/// `handshake()` until `.done`, then `read`/`write`, waiting for the readiness each `want…` names.
/// Not thread-safe; used on its loop's thread only. The descriptor is not owned: the caller closes
/// it after dropping the connection.
public final class TLSConnection {
    public enum Mode {
        /// Connects to an upstream: SNI and certificate name `serverName` (a host name or an IP
        /// literal), resuming the session held in `session` when there is one and storing new ones there.
        case client(serverName: String, session: TLSSessionCache?)
        /// Accepts a client connection on the listener.
        case server
    }

    let ssl: OpaquePointer
    /// Keeps the SSL_CTX alive for as long as `ssl` uses it.
    let context: TLSContext
    /// Kept alive here because `ssl` points to it for OpenSSL's new-session callback.
    private let sessionCache: TLSSessionCache?
    /// The name the server's certificate must carry; nil on the server side.
    let expectedName: String?
    /// After a fatal error OpenSSL forbids sending close_notify.
    var hasFailed = false

    public init(context: TLSContext, fd: Int32, mode: Mode) throws(TLSError) {
        ERR_clear_error()
        guard let ssl = SSL_new(context.pointer) else { throw .fromQueue("cannot create TLS connection") }
        guard let bio = TLSSocketBIO.shared.makeBIO(fd: fd) else {
            SSL_free(ssl)
            throw .fromQueue("cannot create TLS connection")
        }
        SSL_set_bio(ssl, bio, bio)  // `ssl` owns the BIO from here on

        switch mode {
        case .client(let serverName, let cache):
            do {
                try Self.configureClient(ssl, serverName: serverName, verify: context.verifiesPeer)
            } catch {
                SSL_free(ssl)
                throw error
            }
            if let cache {
                _ = SSL_set_ex_data(ssl, Self.sessionCacheIndex, Unmanaged.passUnretained(cache).toOpaque())
                if let session = cache.resumableSession { _ = SSL_set_session(ssl, session) }
            }
            SSL_set_connect_state(ssl)
            sessionCache = cache
            expectedName = serverName
        case .server:
            SSL_set_accept_state(ssl)
            sessionCache = nil
            expectedName = nil
        }
        self.ssl = ssl
        self.context = context
    }

    deinit {
        SSL_free(ssl)
    }

    // MARK: - Client setup

    /// SNI for host names (RFC 6066 forbids IP literals there) and, when verifying, the name or
    /// address the certificate must match. Partial wildcards (`a*.example.com`) are refused.
    private static func configureClient(_ ssl: OpaquePointer, serverName: String, verify: Bool) throws(TLSError) {
        let isAddress = isIPLiteral(serverName)
        if !isAddress, gh_SSL_set_tlsext_host_name(ssl, serverName) != 1 {
            throw .fromQueue("invalid TLS server name \(serverName)")
        }
        guard verify else { return }
        if isAddress {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), serverName) == 1 else {
                throw .fromQueue("invalid TLS server address \(serverName)")
            }
        } else {
            SSL_set_hostflags(ssl, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS))
            guard SSL_set1_host(ssl, serverName) == 1 else {
                throw .fromQueue("invalid TLS server name \(serverName)")
            }
        }
    }

    private static func isIPLiteral(_ name: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, name, &address) == 1 || inet_pton(AF_INET6, name, &address) == 1
    }

    // MARK: - Session cache link

    /// The ex-data slot OpenSSL reserves for the application (what `SSL_set_app_data` uses).
    private static let sessionCacheIndex: Int32 = 0

    /// The cache a client connection was made with, for OpenSSL's new-session callback.
    static func sessionCache(of ssl: OpaquePointer) -> TLSSessionCache? {
        guard let raw = SSL_get_ex_data(ssl, sessionCacheIndex) else { return nil }
        return Unmanaged<TLSSessionCache>.fromOpaque(raw).takeUnretainedValue()
    }
}
