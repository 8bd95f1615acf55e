import GatehouseConfig
import GatehouseHTTP
import GatehouseIO

/// What one GET of a key set or discovery document brought back.
struct FetchedDocument: Sendable {
    var status: Int
    var body: [UInt8]
    /// The response's `Cache-Control` value, if any.
    var cacheControl: String?
}

/// One HTTP/1.1 GET on an event loop, for key sets and discovery documents: connect (TLS with
/// verification and SNI as for upstreams), send, read the head with `ResponseHeadParser` and the
/// body by its framing (`ChunkedDecoder` for chunked), within a deadline and a size bound. Calls
/// `completion` once, on the loop's thread.
final class KeyFetch: IOHandler, TimerTarget {
    /// Key sets are a few KiB; a discovery document a few more.
    static let maxBodyBytes = JWKSet.maxFileBytes
    static let readChunk = 16 * 1024

    private enum State {
        case connecting
        case handshaking
        case sending
        case readingHead
        case readingBody(ResponseHead)
        case finished
    }

    private let loop: EventLoop
    private let url: KeyURL
    private let tlsContext: TLSContext?
    private let completion: (Result<FetchedDocument, KeyFetchError>) -> Void
    private var fd: Int32 = -1
    private var token: UInt64 = 0
    private var stream = SocketStream(fd: -1)
    private var state = State.connecting
    private var output: [UInt8]
    private var written = 0
    private var input: [UInt8] = []
    private var body: [UInt8] = []
    private var chunked = ChunkedDecoder()
    private var scanned = 0

    var deadline: UInt64 = 0
    var scheduledDeadline: UInt64 = 0

    /// Starts the fetch; `timeout` covers the whole exchange.
    init(url: KeyURL, tlsContext: TLSContext?, loop: EventLoop, timeout: UInt64,
         completion: @escaping (Result<FetchedDocument, KeyFetchError>) -> Void) {
        self.loop = loop
        self.url = url
        self.tlsContext = tlsContext
        self.completion = completion
        output = Array("GET \(url.target) HTTP/1.1\r\nHost: \(url.authority)\r\nAccept: application/json\r\nUser-Agent: gatehouse\r\nConnection: close\r\n\r\n".utf8)
        deadline = loop.now + timeout
        loop.scheduleDeadline(self)
        start()
    }

    private func start() {
        // Resolution may block for a moment; it runs on the key thread, never on a worker.
        guard let address = SocketAddress.resolve(host: url.host, port: url.port) else {
            return finish(.failure(KeyFetchError("cannot resolve host \"\(url.host)\"")))
        }
        switch Syscalls.connect(to: address) {
        case .done(let descriptor):
            fd = Int32(descriptor)
            stream = SocketStream(fd: fd)
            token = loop.register(fd, .writable, handler: self)
        case .wouldBlock:
            finish(.failure(KeyFetchError("connect would block")))
        case .failed(let code):
            finish(.failure(KeyFetchError("connect to \(url.authority) failed: \(Syscalls.errorText(code))")))
        }
    }

    func handleEvents(_ events: EventSet) {
        switch state {
        case .connecting:
            let code = Syscalls.connectError(fd)
            guard code == 0 else {
                return finish(.failure(KeyFetchError("connect to \(url.authority) failed: \(Syscalls.errorText(code))")))
            }
            connected()
        case .handshaking: continueHandshake()
        case .sending: send()
        case .readingHead, .readingBody: receive()
        case .finished: break
        }
    }

    func deadlineReached(now: UInt64) {
        guard now >= deadline else { return loop.scheduleDeadline(self) }
        finish(.failure(KeyFetchError("no complete answer from \(url.authority) in time")))
    }

    // MARK: - Steps

    private func connected() {
        guard let tlsContext else {
            guard url.scheme != .https else {
                return finish(.failure(KeyFetchError("TLS with \(url.authority): the system trust store could not be loaded")))
            }
            state = .sending
            return send()
        }
        do {
            stream = SocketStream(fd: fd, tls: try TLSConnection(context: tlsContext, fd: fd,
                                                               mode: .client(serverName: url.host, session: nil)))
        } catch {
            return finish(.failure(KeyFetchError("TLS with \(url.authority): \(error.message)")))
        }
        state = .handshaking
        continueHandshake()
    }

    private func continueHandshake() {
        guard let tls = stream.tls else { return }
        switch tls.handshake() {
        case .done:
            state = .sending
            send()
        case .wantRead: loop.modify(fd, .readable, token: token)
        case .wantWrite: loop.modify(fd, .writable, token: token)
        case .failed(let error): finish(.failure(KeyFetchError("TLS with \(url.authority): \(error.message)")))
        }
    }

    private func send() {
        while written < output.count {
            let outcome = output.withUnsafeBytes { raw in
                stream.write(from: raw.baseAddress! + written, count: raw.count - written)
            }
            switch outcome {
            case .done(let count): written += count
            case .wouldBlock(let needsWritable):
                return loop.modify(fd, needsWritable ? .writable : .readable, token: token)
            case .failed(let reason): return finish(.failure(KeyFetchError("sending to \(url.authority): \(reason)")))
            }
        }
        state = .readingHead
        loop.modify(fd, .readable, token: token)
    }

    private func receive() {
        var chunk = [UInt8](repeating: 0, count: Self.readChunk)
        while true {
            let outcome = chunk.withUnsafeMutableBytes { stream.read(into: $0.baseAddress!, count: $0.count) }
            switch outcome {
            case .done(0):
                return endOfStream()
            case .done(let count):
                guard absorb(chunk[..<count]) else { return }
            case .wouldBlock(let needsWritable):
                return loop.modify(fd, needsWritable ? .writable : .readable, token: token)
            case .failed(let reason):
                return finish(.failure(KeyFetchError("reading from \(url.authority): \(reason)")))
            }
        }
    }

    /// Takes newly read bytes; false once the fetch is finished.
    private func absorb(_ bytes: ArraySlice<UInt8>) -> Bool {
        switch state {
        case .readingHead:
            input.append(contentsOf: bytes)
            let result = input.withUnsafeBytes { ResponseHeadParser().parse($0, requestMethod: .get, scanned: &scanned) }
            switch result {
            case .incomplete:
                return true
            case .invalid(let reason):
                finish(.failure(KeyFetchError("malformed response from \(url.authority): \(reason)")))
                return false
            case .complete(let head, let consumed):
                let rest = input[consumed...]
                input = []
                if head.isInterim {
                    scanned = 0
                    return absorb(rest)
                }
                state = .readingBody(head)
                if case .none = head.framing { return complete(head) }
                return rest.isEmpty ? checkContentLengthDone(head) : absorb(rest)
            }
        case .readingBody(let head):
            switch head.framing {
            case .chunked:
                // Bytes the decoder could not use yet come first (it wants them again with more).
                var remaining = ArraySlice(input + bytes)
                input = []
                while !remaining.isEmpty {
                    let step = remaining.withUnsafeBytes { chunked.decode($0) }
                    switch step {
                    case .data(let range, let consumed):
                        guard append(remaining[(remaining.startIndex + range.lowerBound)..<(remaining.startIndex + range.upperBound)]) else { return false }
                        remaining = remaining.dropFirst(consumed)
                    case .needMore(let consumed):
                        input = Array(remaining.dropFirst(consumed))
                        return true
                    case .end:
                        return complete(head)
                    case .invalid(let reason):
                        finish(.failure(KeyFetchError("malformed chunked body from \(url.authority): \(reason)")))
                        return false
                    }
                }
                return true
            case .contentLength:
                guard append(bytes) else { return false }
                return checkContentLengthDone(head)
            case .closeDelimited:
                return append(bytes)
            case .none:
                return complete(head)
            }
        case .connecting, .handshaking, .sending, .finished:
            return false
        }
    }

    private func append(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard body.count + bytes.count <= Self.maxBodyBytes else {
            finish(.failure(KeyFetchError("the answer from \(url.authority) is larger than \(Self.maxBodyBytes) bytes")))
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    private func checkContentLengthDone(_ head: ResponseHead) -> Bool {
        guard case .contentLength(let length) = head.framing else { return true }
        if length > Self.maxBodyBytes {
            finish(.failure(KeyFetchError("the answer from \(url.authority) is larger than \(Self.maxBodyBytes) bytes")))
            return false
        }
        return body.count >= length ? complete(head) : true
    }

    private func endOfStream() {
        if case .readingBody(let head) = state, case .closeDelimited = head.framing {
            _ = complete(head)
            return
        }
        finish(.failure(KeyFetchError("\(url.authority) closed the connection before a complete answer")))
    }

    private func complete(_ head: ResponseHead) -> Bool {
        let cacheControl = head.headerValue(named: "cache-control").map { String(decoding: head.bytes[$0], as: UTF8.self) }
        finish(.success(FetchedDocument(status: head.status, body: body, cacheControl: cacheControl)))
        return false
    }

    private func finish(_ result: Result<FetchedDocument, KeyFetchError>) {
        if case .finished = state { return }
        state = .finished
        deadline = 0
        if fd >= 0 {
            loop.unregister(fd)
            Syscalls.close(fd)
            fd = -1
        }
        completion(result)
    }
}

/// Why a fetch failed, for the error log, `/status` and `check --online`.
struct KeyFetchError: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
