import Foundation
import Glibc
import Testing
@testable import GatehouseDemo

/// The backend over a real socket on 127.0.0.1: framing, keep-alive, pipelining, `100 Continue`,
/// and what closes a connection.
@Suite(.serialized) struct DemoServerTests {
    static let port = 19473
    /// Long enough for a loaded machine, short enough that a hang fails the test.
    static let receiveTimeoutSeconds = 5

    static func server() -> DemoServer {
        DemoServer(backend: DemoTestSupport.backend(), port: port)
    }

    /// Connects, sends `parts` one by one (waiting `pauseMicroseconds` between them), shuts its
    /// sending side when `endInput`, and reads until the backend closes the connection.
    static func exchange(_ parts: [String], pauseMicroseconds: UInt32 = 0, endInput: Bool = false) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0)
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        for part in parts {
            let bytes = Array(part.utf8)
            #expect(bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count)
            if pauseMicroseconds > 0 { usleep(pauseMicroseconds) }
        }
        if endInput { shutdown(fd, Int32(SHUT_WR)) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[0..<count]
        }
        return DemoTestSupport.text(received)
    }

    @Test func servesPipelinedKeepAliveAndChunkedRequests() throws {
        let server = Self.server()
        try server.start()
        defer { server.stop() }

        let query = #"{"query":"{ appsetting { cdnUrl } }"}"#
        let chunked = "POST /graphql/noauth HTTP/1.1\r\nHost: x\r\nX-Service-Token: svc\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;ext=1\r\n" + String(query.prefix(5)) + "\r\n"
            + String(query.utf8.count - 5, radix: 16) + "\r\n" + String(query.dropFirst(5)) + "\r\n0\r\nX-Trailer: 1\r\n\r\n"
        let last = "GET /graphql/execute.json/wknd-shared/adventure-by-slug;slug=cycling-tuscany HTTP/1.1\r\n"
            + "Host: x\r\nConnection: close\r\n\r\n"
        let answer = try Self.exchange([DemoTestSupport.post("/graphql", query) + chunked + last])

        let responses = Array(answer.components(separatedBy: "HTTP/1.1 ").dropFirst())
        try #require(responses.count == 3)
        let appsetting = #"{"data":{"appsetting":{"cdnUrl":"https://cdn.example.com/"}}}"#
        #expect(responses[0].hasPrefix("200 OK\r\n"))
        #expect(responses[0].hasSuffix("\r\n\r\n" + appsetting))
        #expect(!responses[0].contains("Connection: close"))
        #expect(responses[1].hasSuffix("\r\n\r\n" + appsetting))
        #expect(responses[2].contains("Connection: close\r\n"))
        #expect(responses[2].contains(#""slug":"cycling-tuscany""#))
    }

    @Test func answersEveryRequestSentBeforeTheClientEndedItsInput() throws {
        let server = Self.server()
        try server.start()
        defer { server.stop() }
        let query = #"{"query":"{ appsetting { minVersion } }"}"#
        let answer = try Self.exchange([DemoTestSupport.post("/graphql", query) + DemoTestSupport.post("/graphql", query)],
                                       endInput: true)
        let responses = Array(answer.components(separatedBy: "HTTP/1.1 200 OK\r\n").dropFirst())
        #expect(responses.count == 2)
        #expect(responses.allSatisfy { $0.hasSuffix(#"{"data":{"appsetting":{"minVersion":"1.0.0"}}}"#) })
    }

    @Test func answersRequestsThatArriveInPieces() throws {
        let server = Self.server()
        try server.start()
        defer { server.stop() }
        let request = DemoTestSupport.post("/graphql", #"{"query":"{ appsetting { minVersion } }"}"#,
                                           headers: [("X-Service-Token", "svc"), ("Connection", "close")])
        let pieces = stride(from: 0, to: request.utf8.count, by: 17).map { start in
            String(decoding: Array(request.utf8)[start..<min(start + 17, request.utf8.count)], as: UTF8.self)
        }
        let answer = try Self.exchange(pieces, pauseMicroseconds: 1_000)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(answer.hasSuffix(#"{"data":{"appsetting":{"minVersion":"1.0.0"}}}"#))
    }

    @Test func sendsContinueBeforeTheBody() throws {
        let server = Self.server()
        try server.start()
        defer { server.stop() }
        let body = #"{"query":"{ appsetting { cdnUrl } }"}"#
        let head = "POST /graphql HTTP/1.1\r\nHost: x\r\nX-Service-Token: svc\r\nExpect: 100-continue\r\n"
            + "Connection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        let answer = try Self.exchange([head, body], pauseMicroseconds: 50_000)
        #expect(answer.hasPrefix("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n"))
    }

    @Test(arguments: [
        ("GET /nowhere HTTP/1.0\r\n\r\n", "404 Not Found"),
        ("GET /nowhere HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 70_000) + "\r\n\r\n",
         "431 Request Header Fields Too Large"),
        ("BROKEN\r\n\r\n", "400 Bad Request"),
        ("POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Length: nine\r\n\r\n", "400 Bad Request"),
        ("POST /graphql HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", "400 Bad Request"),
        ("POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n", "413 Content Too Large"),
    ])
    func answersOnceAndCloses(_ request: String, _ statusLine: String) throws {
        let server = Self.server()
        try server.start()
        defer { server.stop() }
        let answer = try Self.exchange([request])
        #expect(answer.hasPrefix("HTTP/1.1 \(statusLine)\r\n"))
        #expect(answer.contains("Connection: close\r\n"))
        #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2)
    }

    @Test func closesAConnectionThatStaysSilent() throws {
        let server = DemoServer(backend: DemoTestSupport.backend(), port: Self.port, idleTimeout: .milliseconds(50))
        try server.start()
        defer { server.stop() }
        let started = ContinuousClock.now
        #expect(try Self.exchange([]) == "")
        #expect(ContinuousClock.now - started < .seconds(Self.receiveTimeoutSeconds))
    }

    @Test func refusesASecondStartAndABusyPort() throws {
        let server = Self.server()
        try server.start()
        defer { server.stop() }
        #expect(throws: DemoServerError.self) { try server.start() }
        #expect(throws: DemoServerError.self) { try Self.server().start() }
    }

    @Test func stopReleasesThePort() throws {
        let first = Self.server()
        try first.start()
        first.stop()
        let second = Self.server()
        try second.start()
        second.stop()
    }
}
