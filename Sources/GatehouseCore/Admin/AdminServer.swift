import CLinux
import GatehouseConfig
import GatehouseHTTP
import GatehouseIO

/// The admin listener (README, "Observability") on its own thread and loop, away from the request path:
/// `/healthz`, `/readyz`, `/metrics` and `/status`.
final class AdminServer: IOHandler, @unchecked Sendable {
    private let loop = EventLoop(name: "gatehouse-admin")
    private let fd: Int32
    private unowned let gateway: Gateway
    private var thread: pthread_t?

    init(address: HostPort, gateway: Gateway) throws {
        try Listener.ensureAvailable(host: address.host, port: address.port)
        fd = try Listener.open(host: address.host, port: address.port, backlog: 128)
        self.gateway = gateway
    }

    func start() {
        loop.register(fd, .readable, handler: self)
        let loop = self.loop
        thread = WorkerThread.start(name: "gatehouse-admin") {
            loop.run()
            // The loop holds this server (its handler), which holds the loop.
            loop.releaseEverything()
        }
    }

    /// Once the drain is over: stops answering and returns when the admin thread has ended, so
    /// no request (a load balancer's `/readyz`) reads the gateway after it is gone.
    func stop() {
        guard let thread else { return }
        self.thread = nil
        loop.post { $0.stop() }
        WorkerThread.join(thread)
    }

    func handleEvents(_ events: EventSet) {
        while true {
            let (result, _) = Syscalls.accept(fd)
            guard case .done(let client) = result else { return }
            AdminConnection(fd: Int32(client), loop: loop, server: self).start()
        }
    }

    /// `POST /cache/purge`: answered once the store has (a Redis store answers later, on a worker's
    /// loop through that worker's connection); `reply` may be called on any thread.
    func purge(body: [UInt8], reply: @escaping @Sendable (AdminAnswer) -> Void) {
        CachePurgeRequest.start(body: body, on: gateway.firstWorker, reply: reply)
    }

    /// The answer to an admin request other than `POST /cache/purge` (which waits for the store):
    /// the path decides first, so a known path asked with the wrong method is a 405, not a 404.
    func answer(method: HTTPMethod, path: String) -> AdminAnswer {
        if path == CachePurgeRequest.path {
            return AdminAnswer(status: 405, body: "method not allowed\n", allow: "POST")
        }
        guard ["/healthz", "/readyz", "/metrics", "/status"].contains(path) else {
            return AdminAnswer(status: 404, body: "not found\n")
        }
        guard method == .get || method == .head else {
            return AdminAnswer(status: 405, body: "method not allowed\n", allow: "GET, HEAD")
        }
        switch path {
        case "/healthz":
            return AdminAnswer(status: 200, body: "ok\n")
        case "/readyz":
            return gateway.isDraining ? AdminAnswer(status: 503, body: "draining\n") : AdminAnswer(status: 200, body: "ready\n")
        case "/metrics":
            return AdminAnswer(status: 200, type: "text/plain; version=0.0.4",
                               body: PrometheusText.render(gateway.workerMetrics)
                                   + JWKSMetricsText.render(now: gh_realtime_ns() / 1_000_000_000))
        default:
            return .json(200, gateway.status.serialized + "\n")
        }
    }
}

/// One admin client: reads a request head, answers, closes.
/// Touched only on the admin loop: a purge's answer arrives through the loop's mailbox.
private final class AdminConnection: IOHandler, TimerTarget, @unchecked Sendable {
    private let fd: Int32
    private let loop: EventLoop
    private let server: AdminServer
    private var input: [UInt8] = []
    private var output: [UInt8] = []
    private var scanned = 0
    private var answered = false
    private var closed = false
    private var token: UInt64 = 0
    var deadline: UInt64 = 0
    var scheduledDeadline: UInt64 = 0

    init(fd: Int32, loop: EventLoop, server: AdminServer) {
        self.fd = fd
        self.loop = loop
        self.server = server
    }

    func start() {
        token = loop.register(fd, .readable, handler: self)
        deadline = loop.now + 5_000_000_000
        loop.scheduleDeadline(self)
    }

    func handleEvents(_ events: EventSet) {
        if answered {
            // With nothing written yet a purge's answer is on its way: a client that half-closed
            // after its request still gets it; only a broken connection ends the wait.
            if output.isEmpty {
                if !events.isDisjoint(with: [.error, .hangup]) { close() }
                return
            }
            flush()
            return
        }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let result = chunk.withUnsafeMutableBytes { Syscalls.receive(fd, $0.baseAddress!, $0.count) }
        switch result {
        case .done(0), .failed:
            close()
            return
        case .done(let n):
            input.append(contentsOf: chunk[0..<n])
        case .wouldBlock:
            return
        }
        let parser = RequestHeadParser(limits: HTTPLimits())
        let parsed = input.withUnsafeBytes { parser.parse($0, scanned: &scanned) }
        switch parsed {
        case .incomplete:
            if input.count > 16 * 1024 { close() }
        case .invalid:
            respond(AdminAnswer(status: 400, body: "bad request\n"), head: false)
        case .complete(let head, let consumed):
            // No browser page administers the gateway: one from another site, or one a DNS
            // rebinding points at this port, could otherwise purge with a form's plain POST.
            if head.headerValue(named: "origin") != nil {
                return respond(AdminAnswer(status: 403, body: "requests from a web page are refused\n"), head: false)
            }
            // A request body (POST /cache/purge) is read whole, up to the same bound as the head.
            let length: Int
            switch head.framing {
            case .none: length = 0
            case .contentLength(let declared): length = declared
            case .chunked:
                // Read as no body it would be `{}`: everything purged instead of what was asked.
                return respond(AdminAnswer(status: 411, body: "send the body with a Content-Length\n"), head: false)
            }
            if length > 16 * 1024 { return respond(AdminAnswer(status: 413, body: "too large\n"), head: false) }
            if input.count - consumed < length {
                scanned = 0  // the head is parsed again once the body is here
                return
            }
            let requestBody = Array(input[consumed..<(consumed + length)])
            if head.methodKind == .post && head.string(head.path) == CachePurgeRequest.path {
                if head.query != nil {
                    return respond(AdminAnswer(status: 400, body: "the purge takes its filter in the body, not the query string\n"),
                                   head: false)
                }
                answered = true  // nothing more is read; the answer comes when the store's does
                loop.modify(fd, [], token: token)
                let loop = self.loop
                server.purge(body: requestBody) { answer in
                    loop.post { _ in if !self.closed { self.respond(answer, head: false) } }
                }
                return
            }
            respond(server.answer(method: head.methodKind, path: head.string(head.path)), head: head.methodKind == .head)
        }
    }

    private func respond(_ answer: AdminAnswer, head: Bool) {
        answered = true
        let allow = answer.allow.map { "Allow: \($0)\r\n" } ?? ""
        output = Array(("HTTP/1.1 \(answer.status) \(HTTPStatus.reasonPhrase(answer.status))\r\nContent-Type: \(answer.type)\r\n"
                        + "Content-Length: \(answer.body.utf8.count)\r\n\(allow)Connection: close\r\n\r\n").utf8)
        if !head { output.append(contentsOf: answer.body.utf8) }
        flush()
    }

    private func flush() {
        while !output.isEmpty {
            let result = output.withUnsafeBytes { Syscalls.write(fd, $0.baseAddress!, $0.count) }
            switch result {
            case .done(let n):
                output.removeFirst(n)
            case .wouldBlock:
                loop.modify(fd, .writable, token: token)
                return
            case .failed:
                close()
                return
            }
        }
        close()
    }

    func deadlineReached(now: UInt64) { close() }

    private func close() {
        guard !closed else { return }
        closed = true
        deadline = 0
        loop.unregister(fd)
        Syscalls.close(fd)
    }
}
