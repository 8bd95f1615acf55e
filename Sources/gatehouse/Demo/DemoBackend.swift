import Foundation
import Synchronization

/// The backend `gatehouse demo` puts behind the gateway (SPEC §6): a GraphQL endpoint that answers
/// the seed apps' operations from canned and in-memory data, and an AEM-style persisted-query
/// endpoint. It is a fixture for trying the gateway, not a GraphQL engine.
///
/// Plain blocking sockets, one thread per connection, keep-alive supported:
/// - `POST /graphql`, `POST /graphql/noauth` (and any other `/graphql/…` path, which is where a
///   prefix route's remainder lands): GraphQL JSON requests;
/// - `GET /graphql/execute.json/<aemConfig>/<name>;k=v;…`: AEM persisted queries;
/// - anything else: 404 JSON (405 for a method those paths do not take).
final class DemoBackend: Sendable {
    let host: String
    let port: Int
    /// Signs the tokens `createUserToken` hands out; the gateway's `user-jwt` checks them with it.
    let tokenSecret: String
    /// When set, GraphQL requests must carry `X-Service-Token` with this value, which the gateway
    /// injects; requests without it get a GraphQL `Unauthorized` error.
    let serviceToken: String?
    /// The AEM configuration name in persisted-query paths.
    let aemConfig: String
    let movies = DemoMovieStore()

    /// The listening socket once started; -1 before `start()` and after `stop()`.
    private let listener = Mutex<Int32>(-1)

    /// Seconds an idle keep-alive connection is kept before its thread gives up on it.
    static let idleSeconds = 120

    init(host: String = "127.0.0.1", port: Int = 9399, tokenSecret: String, serviceToken: String? = nil,
         aemConfig: String = "wknd-shared") {
        self.host = host
        self.port = port
        self.tokenSecret = tokenSecret
        self.serviceToken = serviceToken
        self.aemConfig = aemConfig
    }

    // MARK: - Lifecycle

    /// Binds `host:port` and serves on background threads; returns once the socket listens, so a
    /// gateway started afterwards finds the backend ready. Throws when the port cannot be bound.
    func start() throws {
        let fd = try DemoSocket.listen(host: host, port: port)
        let alreadyStarted = listener.withLock { current in
            guard current < 0 else { return true }
            current = fd
            return false
        }
        if alreadyStarted {
            close(fd)
            throw DemoBackendError(description: "already started")
        }
        let acceptThread = Thread { [self] in acceptLoop(fd) }
        acceptThread.name = "demo-backend-accept"
        acceptThread.start()
    }

    /// Stops accepting connections; connections already open finish their current request.
    func stop() {
        let fd = listener.withLock { current in
            defer { current = -1 }
            return current
        }
        guard fd >= 0 else { return }
        // shutdown wakes the thread blocked in accept; close then releases the port.
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    // MARK: - Serving

    private func acceptLoop(_ listenerFD: Int32) {
        while let client = DemoSocket.accept(listener: listenerFD) {
            let connectionThread = Thread { [self] in serve(client) }
            connectionThread.name = "demo-backend-connection"
            connectionThread.start()
        }
    }

    /// Answers requests on one connection until the peer closes, asks to close, or idles out.
    private func serve(_ fd: Int32) {
        defer { close(fd) }
        DemoSocket.setReceiveTimeout(fd, seconds: Self.idleSeconds)
        let connection = DemoHTTPConnection(fd: fd)
        while true {
            let request: DemoRequest
            do {
                request = try connection.readRequest()
            } catch {
                if case .refused(let response) = error {
                    _ = DemoSocket.sendAll(fd, response.serialized(keepAlive: false))
                }
                return
            }
            let keepAlive = request.keepAlive
            let response = respond(to: request)
            guard connection.write(response, to: request, keepAlive: keepAlive), keepAlive else { return }
        }
    }

    /// The answer to one request; never throws, every failure is a response.
    func respond(to request: DemoRequest) -> DemoResponse {
        let aemPrefix = "/graphql/execute.json/"
        if request.path.hasPrefix(aemPrefix) {
            guard request.method == "GET" || request.method == "HEAD" else {
                return .error(status: 405, "Persisted queries are read with GET")
            }
            return respondToPersistedQuery(pathRemainder: String(request.path.dropFirst(aemPrefix.count)))
        }
        if request.path == "/graphql" || request.path.hasPrefix("/graphql/") {
            guard request.method == "POST" else {
                return .error(status: 405, "The demo backend takes GraphQL requests as POST")
            }
            return respondToGraphQL(request)
        }
        return .error(status: 404, "Not found")
    }
}
