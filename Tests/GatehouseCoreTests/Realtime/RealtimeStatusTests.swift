import GatehouseGraphQL
import Testing
@testable import GatehouseCore

/// What the admin status reports about tunnels, summed over workers.
@Suite struct RealtimeStatusTests {
    @Test func tunnelsAndClosesAreSummedOverWorkers() {
        let first = WorkerMetrics()
        let second = WorkerMetrics()
        first.websocketTunnelsOpen.atomicAdd(0, 2)
        second.websocketTunnelsOpen.atomicAdd(0, 1)
        first.recordWebSocketClose(route: "/ws", code: 4403)
        second.recordWebSocketClose(route: "/ws", code: 4403)
        second.recordWebSocketClose(route: "/ws", code: 1009)
        let expected: JSONValue = .object([
            "websocket_tunnels_open": .number("3"),
            "websocket_closes": .array([
                .object(["route": .string("/ws"), "code": .number("1009"), "count": .number("1")]),
                .object(["route": .string("/ws"), "code": .number("4403"), "count": .number("2")]),
            ]),
        ])
        #expect(RealtimeStatus.json([first, second]) == expected)
    }
}
