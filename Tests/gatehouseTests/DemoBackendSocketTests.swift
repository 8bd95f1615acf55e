import Foundation
import Glibc
import Testing
@testable import gatehouse

/// The backend over real sockets: framing, keep-alive, pipelining, and what closes a connection.
@Suite(.serialized) struct DemoBackendSocketTests {
    static let port = 19473

    /// Sends `bytes` on a fresh connection and reads until the backend closes it.
    static func exchange(_ bytes: String) throws -> String {
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
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #expect(DemoSocket.sendAll(fd, Array(bytes.utf8)))
        var received: [UInt8] = []
        while let count = DemoSocket.receive(fd, into: &received), count > 0 {}
        return String(decoding: received, as: UTF8.self)
    }

    static func post(_ path: String, _ body: String, extra: String = "") -> String {
        "POST \(path) HTTP/1.1\r\nHost: x\r\nX-Service-Token: svc\r\n\(extra)Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    @Test func servesPipelinedKeepAliveAndChunkedRequests() throws {
        let backend = DemoBackend(port: Self.port, tokenSecret: "s", serviceToken: "svc")
        try backend.start()
        defer { backend.stop() }

        let query = #"{"query":"{ appsetting { cdnUrl } }"}"#
        let chunked = "POST /graphql/noauth HTTP/1.1\r\nHost: x\r\nX-Service-Token: svc\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;ext=1\r\n" + String(query.prefix(5)) + "\r\n"
            + String(query.utf8.count - 5, radix: 16) + "\r\n" + String(query.dropFirst(5)) + "\r\n0\r\nX-Trailer: 1\r\n\r\n"
        let last = "GET /graphql/execute.json/wknd-shared/adventure-by-slug;slug=cycling-tuscany HTTP/1.1\r\n"
            + "Host: x\r\nConnection: close\r\n\r\n"
        let answer = try Self.exchange(Self.post("/graphql", query) + chunked + last)

        let responses = answer.components(separatedBy: "HTTP/1.1 ").dropFirst()
        try #require(responses.count == 3)
        let appsetting = #"{"data":{"appsetting":{"cdnUrl":"https://cdn.example.com/","minVersion":"1.0.0"}}}"#
        #expect(Array(responses)[0].hasPrefix("200 OK\r\n"))
        #expect(Array(responses)[0].hasSuffix("\r\n\r\n" + appsetting))
        #expect(!Array(responses)[0].contains("Connection: close"))
        #expect(Array(responses)[1].hasSuffix("\r\n\r\n" + appsetting))
        #expect(Array(responses)[2].contains("Connection: close\r\n"))
        #expect(Array(responses)[2].contains(#""slug":"cycling-tuscany""#))
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
        let backend = DemoBackend(port: Self.port, tokenSecret: "s")
        try backend.start()
        defer { backend.stop() }
        let answer = try Self.exchange(request)
        #expect(answer.hasPrefix("HTTP/1.1 \(statusLine)\r\n"))
        #expect(answer.contains("Connection: close\r\n"))
        #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2)
    }

    @Test func refusesASecondStartAndABusyPort() throws {
        let backend = DemoBackend(port: Self.port, tokenSecret: "s")
        try backend.start()
        defer { backend.stop() }
        #expect(throws: DemoBackendError.self) { try backend.start() }
        #expect(throws: DemoBackendError.self) { try DemoBackend(port: Self.port, tokenSecret: "s").start() }
    }
}
