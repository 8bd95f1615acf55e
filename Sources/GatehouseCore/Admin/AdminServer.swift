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

    init(address: HostPort, gateway: Gateway) throws {
        try Listener.ensureAvailable(host: address.host, port: address.port)
        fd = try Listener.open(host: address.host, port: address.port, backlog: 128)
        self.gateway = gateway
    }

    func start() {
        loop.register(fd, .readable, handler: self)
        let loop = self.loop
        // It serves until the process exits.
        WorkerThread.detach(WorkerThread.start(name: "gatehouse-admin") { loop.run() })
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
    func purge(body: [UInt8], reply: @escaping @Sendable (CachePurgeRequest.Answer) -> Void) {
        CachePurgeRequest.start(body: body, on: gateway.firstWorker, reply: reply)
    }

    /// The response for one admin request: status, content type, body.
    func answer(method: String, path: String, body: [UInt8] = []) -> (Int, String, String) {
        guard method == "GET" || method == "HEAD" else { return (405, "text/plain", "method not allowed\n") }
        switch path {
        case "/healthz":
            return (200, "text/plain", "ok\n")
        case "/readyz":
            return gateway.isDraining ? (503, "text/plain", "draining\n") : (200, "text/plain", "ready\n")
        case "/metrics":
            return (200, "text/plain; version=0.0.4", PrometheusText.render(gateway.workerMetrics)
                    + JWKSMetricsText.render(now: gh_realtime_ns() / 1_000_000_000))
        case "/status":
            return (200, "application/json", gateway.status.serialized + "\n")
        default:
            return (404, "text/plain", "not found\n")
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
            respond(400, "text/plain", "bad request\n", head: false)
        case .complete(let head, let consumed):
            // A request body (POST /cache/purge) is read whole, up to the same bound as the head.
            let length = head.headerValue(named: "content-length").flatMap { Int(head.string($0)) } ?? 0
            if length > 16 * 1024 { return respond(413, "text/plain", "too large\n", head: false) }
            if input.count - consumed < length {
                scanned = 0  // the head is parsed again once the body is here
                return
            }
            let requestBody = Array(input[consumed..<(consumed + length)])
            if head.methodKind == .post && head.string(head.path) == CachePurgeRequest.path {
                answered = true  // nothing more is read; the answer comes when the store's does
                let loop = self.loop
                server.purge(body: requestBody) { answer in
                    loop.post { _ in if !self.closed { self.respond(answer.status, answer.type, answer.body, head: false) } }
                }
                return
            }
            let (status, type, body) = server.answer(method: head.string(head.method), path: head.string(head.path),
                                                     body: requestBody)
            respond(status, type, body, head: head.methodKind == .head)
        }
    }

    private func respond(_ status: Int, _ type: String, _ body: String, head: Bool) {
        answered = true
        let reason = status == 200 ? "OK" : status == 503 ? "Service Unavailable" : status == 404 ? "Not Found" : "Error"
        output = Array("HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n".utf8)
        if !head { output.append(contentsOf: body.utf8) }
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
