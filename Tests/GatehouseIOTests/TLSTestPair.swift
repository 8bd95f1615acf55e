import Glibc
@testable import GatehouseIO

/// A client and a server TLS connection over the two ends of a non-blocking Unix socket pair,
/// driven by hand in the same thread the way an event loop would drive them.
final class TLSTestPair {
    let clientFD: Int32
    let serverFD: Int32
    let client: TLSConnection
    let server: TLSConnection

    init(client clientContext: TLSContext, server serverContext: TLSContext,
         serverName: String = "localhost", session: TLSSessionCache? = nil) throws {
        var fds: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { throw TLSError("socketpair failed") }
        clientFD = fds[0]
        serverFD = fds[1]
        do {
            client = try TLSConnection(context: clientContext, fd: clientFD,
                                       mode: .client(serverName: serverName, session: session))
            server = try TLSConnection(context: serverContext, fd: serverFD, mode: .server)
        } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
    }

    deinit {
        close(clientFD)
        close(serverFD)
    }

    // MARK: - Driving

    /// Steps both handshakes in turn until each side is done or failed (or nothing moves any more).
    func handshake() -> (client: TLSStep, server: TLSStep) {
        var clientStep = TLSStep.wantWrite
        var serverStep = TLSStep.wantRead
        for _ in 0..<200 {
            if !clientStep.isFinal { clientStep = client.handshake() }
            if !serverStep.isFinal { serverStep = server.handshake() }
            if clientStep.isFinal && serverStep.isFinal { break }
        }
        return (clientStep, serverStep)
    }

    /// Sends `bytes` from `sender` while `receiver` reads them, interleaved as an event loop would when
    /// the socket buffer fills. Returns what arrived and whether the sender ever saw back-pressure
    /// (a partial write or wantWrite).
    func transfer(_ bytes: [UInt8], from sender: TLSConnection, to receiver: TLSConnection,
                  writeSize: Int = 1 << 20, readSize: Int = 16 * 1024) -> (received: [UInt8], backpressure: Bool, error: TLSError?) {
        var sent = 0
        var received: [UInt8] = []
        var backpressure = false
        var readBuffer = [UInt8](repeating: 0, count: readSize)
        var idleRounds = 0
        while received.count < bytes.count && idleRounds < 100 {
            var moved = false
            if sent < bytes.count {
                let count = min(writeSize, bytes.count - sent)
                switch bytes.withUnsafeBytes({ sender.write(from: $0.baseAddress! + sent, count: count) }) {
                case .done(let n):
                    if n < count { backpressure = true }
                    sent += n
                    moved = n > 0
                case .wantWrite, .wantRead:
                    backpressure = true
                case .failed(let error):
                    return (received, backpressure, error)
                }
            }
            readLoop: while true {
                switch readBuffer.withUnsafeMutableBytes({ receiver.read(into: $0.baseAddress!, count: readSize) }) {
                case .done(let n) where n > 0:
                    received.append(contentsOf: readBuffer[0..<n])
                    moved = true
                case .done, .wantRead, .wantWrite:
                    break readLoop
                case .failed(let error):
                    return (received, backpressure, error)
                }
            }
            idleRounds = moved ? 0 : idleRounds + 1
        }
        return (received, backpressure, nil)
    }

    /// Reads whatever `connection` can read right now (one call).
    func readOnce(_ connection: TLSConnection, count: Int = 64 * 1024) -> (TLSIO, [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: count)
        let outcome = buffer.withUnsafeMutableBytes { connection.read(into: $0.baseAddress!, count: count) }
        if case .done(let n) = outcome { return (outcome, Array(buffer[0..<n])) }
        return (outcome, [])
    }
}

extension TLSStep {
    var isFinal: Bool {
        switch self {
        case .done, .failed: return true
        case .wantRead, .wantWrite: return false
        }
    }

    var failureMessage: String? {
        if case .failed(let error) = self { return error.message }
        return nil
    }
}
