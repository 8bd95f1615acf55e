import GatehouseHTTP
import Testing
@testable import GatehouseDemo

/// The reader, one input per row, fed whole and byte by byte: the requests it cut out (method,
/// path, body) or the status it refused with.
@Suite struct DemoRequestReaderTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var input: String
        /// `METHOD path body` for each request read.
        var requests: [String] = []
        /// The status of the refusal that ends the input, if any.
        var refused: Int? = nil
        var testDescription: String { String(input.prefix(80)) }
    }

    static let rows: [Row] = [
        Row(input: "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", requests: ["GET /a "]),
        Row(input: "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", requests: ["POST /graphql hello"]),
        Row(input: "POST /g HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nabGET /b HTTP/1.1\r\nHost: x\r\n\r\n",
            requests: ["POST /g ab", "GET /b "]),
        Row(input: "POST /g HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-T: 1\r\n\r\n",
            requests: ["POST /g abcde"]),
        Row(input: "GET /nowhere HTTP/1.0\r\n\r\n", requests: ["GET /nowhere "]),
        Row(input: "BROKEN\r\n\r\n", refused: 400),
        Row(input: "POST /g HTTP/1.1\r\nHost: x\r\nContent-Length: nine\r\n\r\n", refused: 400),
        Row(input: "POST /g HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", refused: 400),
        Row(input: "POST /g HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n", refused: 413),
        Row(input: "GET /a HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 40_000) + "\r\n\r\n",
            refused: 431),
        Row(input: "GET /" + String(repeating: "a", count: 9_000) + " HTTP/1.1\r\nHost: x\r\n\r\n", refused: 414),
        Row(input: "POST /g HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", refused: 400),
        Row(input: "GET /a HTTP/1.1\r\nHost: x\r\n\r\nBROKEN\r\n\r\n", requests: ["GET /a "], refused: 400),
    ]

    /// Feeds `input` in pieces of `pieceSize` bytes, as a connection would.
    static func read(_ input: String, pieceSize: Int) -> (requests: [String], refused: Int?) {
        var reader = DemoRequestReader()
        let bytes = Array(input.utf8)
        var unread: [UInt8] = []
        var offset = 0
        var requests: [String] = []
        while offset < bytes.count || !unread.isEmpty {
            let end = min(offset + pieceSize, bytes.count)
            unread += bytes[offset..<end]
            offset = end
            var progressed = true
            while progressed {
                progressed = false
                switch unread.withUnsafeBytes({ reader.read($0) }) {
                case .request(let request, let consumed):
                    unread.removeFirst(consumed)
                    requests.append("\(request.head.string(request.head.method)) \(request.path) "
                                    + DemoTestSupport.text(request.body))
                    progressed = !unread.isEmpty
                case .needMore(let consumed):
                    unread.removeFirst(consumed)
                case .refused(let response):
                    return (requests, response.status)
                }
            }
            if offset == bytes.count { break }
        }
        return (requests, nil)
    }

    @Test(arguments: rows)
    func readsWhole(_ row: Row) {
        let result = Self.read(row.input, pieceSize: row.input.utf8.count)
        #expect(result.requests == row.requests)
        #expect(result.refused == row.refused)
    }

    @Test(arguments: rows.filter { $0.input.utf8.count < 1_000 })
    func readsByteByByte(_ row: Row) {
        let result = Self.read(row.input, pieceSize: 1)
        #expect(result.requests == row.requests)
        #expect(result.refused == row.refused)
    }

    @Test func asksForContinueOnceTheHeadIsIn() {
        var reader = DemoRequestReader()
        let head = Array("POST /g HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8)
        guard case .needMore(let consumed) = head.withUnsafeBytes({ reader.read($0) }) else {
            Issue.record("the head alone is not a request")
            return
        }
        #expect(consumed == head.count)
        #expect(reader.wantsContinue)
        reader.continueSent()
        #expect(!reader.wantsContinue)
    }
}
