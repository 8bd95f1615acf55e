import GatehouseIO

/// The backend's listening socket on its loop.
final class DemoAcceptor: IOHandler {
    private unowned let server: DemoServer
    private let loop: EventLoop
    private let fd: Int32

    init(server: DemoServer, loop: EventLoop, fd: Int32) {
        self.server = server
        self.loop = loop
        self.fd = fd
        loop.register(fd, .readable, handler: self)
    }

    func handleEvents(_ events: EventSet) {
        while true {
            let (result, _) = Syscalls.accept(fd)
            guard case .done(let client) = result else { return }
            server.accepted(Int32(client), loop: loop)
        }
    }

    func close() {
        loop.unregister(fd)
        Syscalls.close(fd)
    }
}
