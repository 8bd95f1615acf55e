import CLinux
import GatehouseIO

/// A worker's listening socket. Accepts in batches; when the process runs out of descriptors
/// it pauses briefly instead of spinning on a listener that stays readable.
final class Acceptor: IOHandler, TimerTarget {
    private unowned let worker: Worker
    private let fd: Int32
    private var token: UInt64 = 0
    private var paused = false
    var deadline: UInt64 = 0
    var scheduledDeadline: UInt64 = 0

    init(worker: Worker, fd: Int32) {
        self.worker = worker
        self.fd = fd
    }

    func start() {
        token = worker.loop.register(fd, .readable, handler: self)
    }

    func handleEvents(_ events: EventSet) {
        for _ in 0..<64 {
            let (result, peer) = Syscalls.accept(fd)
            switch result {
            case .done(let client):
                worker.accepted(fd: Int32(client), peer: peer)
            case .wouldBlock:
                return
            case .failed(let code):
                if code == GH_EMFILE || code == GH_ENFILE {
                    pause()
                }
                return
            }
        }
    }

    private func pause() {
        guard !paused else { return }
        paused = true
        worker.loop.modify(fd, [], token: token)
        deadline = worker.loop.now + 100_000_000
        worker.loop.scheduleDeadline(self)
    }

    func deadlineReached(now: UInt64) {
        guard paused else { return }
        paused = false
        worker.loop.modify(fd, .readable, token: token)
    }

    func close() {
        deadline = 0
        worker.loop.unregister(fd)
        Syscalls.close(fd)
    }
}
