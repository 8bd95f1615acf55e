/// What a `connection_init` tunnel carries until its upstream has answered
/// (`WebSocketTunnel.State.initialising`): the gate and the reader of the first message, the
/// handshake's exchange (the upstream handshake is written from it, and it is logged once the
/// token is judged), and whatever the tunnel waits in, so leaving early lets go of it.
final class TunnelInitProgress {
    var gate: ConnectionInitGate
    var reader: ConnectionInitReader
    let exchange: Exchange
    /// A key refetch the token's unknown `kid` started.
    var keyWait: PendingAnswer?
    /// The pool whose queue the tunnel waits in for a connection.
    var poolWait: UpstreamPool?
    /// The pool the upstream connection came from, for its outcome counters.
    var pool: UpstreamPool?
    /// How far the upstream's answer has been scanned for its head.
    var responseScanned = 0

    init(gate: ConnectionInitGate, reader: ConnectionInitReader, exchange: Exchange) {
        self.gate = gate
        self.reader = reader
        self.exchange = exchange
    }
}
