import GatehouseIO

/// One client connection of the demo backend, on the backend's loop: reads bytes, lets
/// `DemoRequestReader` cut them into requests, answers each in order, and writes the answers
/// back. While an answer waits to be written no further request is read (backpressure).
final class DemoConnection: IOHandler, TimerTarget {
    private unowned let server: DemoServer
    private let loop: EventLoop
    private let stream: SocketStream
    private var token: UInt64 = 0
    private var input = ByteBuffer(capacity: 0)
    private var output: [UInt8] = []
    private var written = 0
    private var reader = DemoRequestReader()
    /// Close once `output` is written: the client asked to, or a request was refused.
    private var closeAfterWrite = false
    /// The client finished sending: answer the requests already here, then close.
    private var inputEnded = false
    private var isClosed = false
    var deadline: UInt64 = 0
    var scheduledDeadline: UInt64 = 0

    /// Bytes read per system call.
    static let readChunk = 16 * 1024

    init(server: DemoServer, loop: EventLoop, fd: Int32) {
        self.server = server
        self.loop = loop
        stream = SocketStream(fd: fd)
    }

    func start() {
        token = loop.register(stream.fd, .readable, handler: self)
        touch()
    }

    // MARK: - Events

    func handleEvents(_ events: EventSet) {
        if events.contains(.writable) || !output.isEmpty { flush() }
        if isClosed { return }
        if output.isEmpty && !closeAfterWrite && !inputEnded { readAvailable() }
    }

    func deadlineReached(now: UInt64) {
        close()
    }

    private func touch() {
        deadline = loop.now + server.idleTimeoutNanoseconds
        loop.scheduleDeadline(self)
    }

    // MARK: - Reading

    private func readAvailable() {
        while !isClosed {
            input.reserveTail(Self.readChunk)
            switch stream.read(into: input.tail, count: input.tailSpace) {
            case .done(0):
                inputEnded = true
                answerBufferedRequests()
                return
            case .done(let count):
                input.commit(count)
                touch()
                answerBufferedRequests()
                if !output.isEmpty || closeAfterWrite { return }
            case .wouldBlock:
                return
            case .failed:
                close()
                return
            }
        }
    }

    /// Answers every complete request in `input`, stopping at the first answer that cannot be
    /// written at once.
    private func answerBufferedRequests() {
        while !isClosed && output.isEmpty {
            let step = reader.read(input.readable)
            switch step {
            case .request(let request, let consumed):
                input.consume(consumed)
                let keepAlive = request.head.keepAlive
                if !keepAlive { closeAfterWrite = true }
                let response = server.backend.respond(to: request)
                queue(response.serialized(keepAlive: keepAlive, includeBody: request.method != .head))
                if closeAfterWrite { return }
            case .needMore(let consumed):
                input.consume(consumed)
                if reader.wantsContinue {
                    reader.continueSent()
                    queue(DemoResponse.continueLine)
                }
                if inputEnded && output.isEmpty { close() }
                return
            case .refused(let response):
                closeAfterWrite = true
                queue(response.serialized(keepAlive: false))
                return
            }
        }
    }

    // MARK: - Writing

    private func queue(_ bytes: [UInt8]) {
        output.append(contentsOf: bytes)
        flush()
    }

    private func flush() {
        while written < output.count {
            let outcome = output.withUnsafeBytes { raw in
                stream.write(from: raw.baseAddress! + written, count: raw.count - written)
            }
            switch outcome {
            case .done(let count):
                written += count
            case .wouldBlock:
                loop.modify(stream.fd, .writable, token: token)
                return
            case .failed:
                close()
                return
            }
        }
        output.removeAll(keepingCapacity: true)
        written = 0
        if closeAfterWrite {
            close()
            return
        }
        loop.modify(stream.fd, .readable, token: token)
        // Pipelined requests may already be waiting in `input`; after the client's end of
        // input, this is also where the connection closes.
        if !input.isEmpty || inputEnded { answerBufferedRequests() }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        deadline = 0
        loop.unregister(stream.fd)
        Syscalls.close(stream.fd)
        server.closed(self)
    }
}
