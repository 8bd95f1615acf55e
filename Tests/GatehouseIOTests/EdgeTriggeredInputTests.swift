import Testing
@testable import GatehouseIO

/// The reader's bookkeeping under an edge-triggered watch, as rows: which reads call for
/// another read, which for epoll to look again, and that a level-triggered watch calls for
/// neither (epoll reports a ready socket again on its own).
struct EdgeTriggeredInputTests {
    struct Row: CustomTestStringConvertible {
        let name: String
        let edgeTriggered: Bool
        let events: EventSet
        let read: Int
        let room: Int
        let looksAgain: Bool
        let readsOn: Bool
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "a short read drained the socket", edgeTriggered: true, events: .readable,
            read: 100, room: 2048, looksAgain: false, readsOn: false),
        Row(name: "a full read may have left bytes", edgeTriggered: true, events: .readable,
            read: 2048, room: 2048, looksAgain: false, readsOn: true),
        Row(name: "a short read after the peer's close may have left the end", edgeTriggered: true,
            events: [.readable, .peerClosed], read: 100, room: 2048, looksAgain: true, readsOn: false),
        Row(name: "a short read after a hangup", edgeTriggered: true, events: [.readable, .hangup],
            read: 1, room: 2048, looksAgain: true, readsOn: false),
        Row(name: "a full read after the peer's close reads on first", edgeTriggered: true,
            events: [.readable, .peerClosed], read: 2048, room: 2048, looksAgain: false, readsOn: true),
        Row(name: "level-triggered, a full read is reported again by epoll", edgeTriggered: false,
            events: .readable, read: 2048, room: 2048, looksAgain: false, readsOn: false),
        Row(name: "level-triggered, the end is reported again by epoll", edgeTriggered: false,
            events: [.readable, .peerClosed], read: 100, room: 2048, looksAgain: false, readsOn: false),
    ]

    @Test(arguments: rows) func aReadCallsForWhatItMayHaveLeft(_ row: Row) {
        var input = EdgeTriggeredInput(edgeTriggered: row.edgeTriggered)
        input.noteEvents(row.events)
        let looksAgain = input.readReturned(row.read, room: row.room)
        let readsOn = input.takeMayRemain()
        let readsOnAgain = input.takeMayRemain()
        #expect(looksAgain == row.looksAgain)
        #expect(readsOn == row.readsOn)
        #expect(!readsOnAgain, "taking the mark clears it")
    }

    /// The peer's close, once reported, holds for every later read of the connection.
    @Test func theReportedEndHoldsForLaterReads() {
        var input = EdgeTriggeredInput(edgeTriggered: true)
        input.noteEvents([.readable, .peerClosed])
        input.noteEvents(.readable)
        let first = input.readReturned(10, room: 2048)
        let second = input.readReturned(5, room: 2048)
        #expect(first && second)
    }

    @Test func theWatchCarriesTheEdgeFlagOnlyWhenOn() {
        #expect(EdgeTriggeredInput(edgeTriggered: true).watch(.readable) == [.readable, .edgeTriggered, .peerClosed])
        #expect(EdgeTriggeredInput(edgeTriggered: false).watch(.readable) == .readable)
        #expect(EdgeTriggeredInput(edgeTriggered: true).watch(.writable) == [.writable, .edgeTriggered])
    }
}
