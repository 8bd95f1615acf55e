import Testing
@testable import GatehouseCore

/// Which request timeout fires, and what it means, on a manual clock.
@Suite struct ExchangeDeadlinesTests {
    typealias Activity = ExchangeDeadlines.Activity

    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let deadlines: ExchangeDeadlines
        let activity: Activity
        let now: UInt64
        let expired: ExchangeDeadlines.Expiry?
        let next: UInt64
        var testDescription: String { name }
    }

    static let reading = Activity(readingBody: true)
    static let forwarding = Activity()
    static let pooled = Activity(waitingForPool: true)
    static let responding = Activity(responseStarted: true)
    static let streaming = Activity(responseStarted: true, streaming: true)

    static let rows: [Row] = [
        Row(name: "body timeout while reading the body: 408", deadlines: .init(body: 30, route: 50),
            activity: reading, now: 30, expired: .body, next: 30),
        Row(name: "body deadline ignored once the body is read", deadlines: .init(body: 30, route: 50),
            activity: forwarding, now: 30, expired: nil, next: 50),
        Row(name: "route timeout while the upstream answers: 504", deadlines: .init(route: 50),
            activity: forwarding, now: 50, expired: .upstream, next: 50),
        Row(name: "route timeout in the pool queue: 503", deadlines: .init(route: 50),
            activity: pooled, now: 51, expired: .poolWait, next: 50),
        Row(name: "route timeout after the head went out: abort", deadlines: .init(route: 50),
            activity: responding, now: 50, expired: .response, next: 50),
        Row(name: "slow streamed body: rate check is due", deadlines: .init(route: 50, bodyRate: 10),
            activity: reading, now: 10, expired: .bodyRate, next: 10),
        Row(name: "the client's failure wins over the upstream's", deadlines: .init(body: 40, route: 40),
            activity: reading, now: 40, expired: .body, next: 40),
        Row(name: "not yet", deadlines: .init(body: 30, route: 50, bodyRate: 20),
            activity: reading, now: 19, expired: nil, next: 20),
        Row(name: "streamed response: exempt from the route timeout", deadlines: .init(route: 50, streamIdle: 90),
            activity: streaming, now: 60, expired: nil, next: 90),
        Row(name: "silent stream: ended at stream_idle_timeout", deadlines: .init(route: 50, streamIdle: 90),
            activity: streaming, now: 90, expired: .streamIdle, next: 90),
        Row(name: "streamed upload body still held to body_timeout", deadlines: .init(body: 30, streamIdle: 90),
            activity: .init(readingBody: true, responseStarted: true, streaming: true), now: 30, expired: .body, next: 30),
        Row(name: "nothing armed", deadlines: .init(), activity: forwarding, now: 99, expired: nil, next: 0),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) {
        #expect(row.deadlines.expired(at: row.now, row.activity) == row.expired)
        #expect(row.deadlines.next(row.activity) == row.next)
    }
}
