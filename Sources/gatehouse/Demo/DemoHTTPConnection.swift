/// Reads requests from and writes responses to one blocking client socket. A minimal HTTP/1.1
/// reader: enough for the gateway and curl (Content-Length and chunked bodies, keep-alive), with
/// no ambition to be strict — the gateway in front is the strict one.
final class DemoHTTPConnection {
    /// Why reading a request stopped short of one.
    enum ReadFailure: Error {
        /// The peer closed or went quiet between requests: just close.
        case closed
        /// The request cannot be understood: answer it, then close.
        case refused(DemoResponse)
    }

    static let maxHeadBytes = 64 * 1024
    static let maxBodyBytes = 8 * 1024 * 1024

    let fd: Int32
    /// Bytes received and not yet consumed; pipelined requests wait here.
    private var buffer: [UInt8] = []

    init(fd: Int32) {
        self.fd = fd
    }

    // MARK: - Reading

    func readRequest() throws(ReadFailure) -> DemoRequest {
        let headEnd = try readHead()
        let headText = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)

        var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines.isEmpty ? [] : lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { throw .refused(.error(status: 400, "Malformed request line")) }
        var headers: [(name: String, value: String)] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                throw .refused(.error(status: 400, "Malformed header line"))
            }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingSpaces()))
        }

        let target = requestLine[1]
        let questionMark = target.firstIndex(of: "?")
        var request = DemoRequest(
            method: String(requestLine[0]),
            path: String(target[..<(questionMark ?? target.endIndex)]),
            query: questionMark.map { String(target[target.index(after: $0)...]) },
            version: String(requestLine[2]),
            headers: headers,
            body: [])
        if request.header("Expect")?.lowercased() == "100-continue" {
            // curl waits for this before sending a large body; without it, it waits a second.
            _ = DemoSocket.sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        request.body = try readBody(of: request)
        return request
    }

    /// Reads until the blank line that ends the head; returns the offset of its `\r\n\r\n`.
    private func readHead() throws(ReadFailure) -> Int {
        var searchFrom = 0
        while true {
            let end = Self.find([13, 10, 13, 10], in: buffer, from: searchFrom)
            if (end ?? buffer.count) > Self.maxHeadBytes {
                throw .refused(.error(status: 431, "Request head too large"))
            }
            if let end { return end }
            searchFrom = max(0, buffer.count - 3)
            try fill()
        }
    }

    private func readBody(of request: DemoRequest) throws(ReadFailure) -> [UInt8] {
        if let encoding = request.header("Transfer-Encoding") {
            guard encoding.lowercased() == "chunked" else {
                throw .refused(.error(status: 400, "Unsupported Transfer-Encoding"))
            }
            return try readChunkedBody()
        }
        guard let lengthText = request.header("Content-Length") else { return [] }
        guard let length = Int(lengthText), length >= 0 else {
            throw .refused(.error(status: 400, "Malformed Content-Length"))
        }
        guard length <= Self.maxBodyBytes else { throw .refused(.error(status: 413, "Body too large")) }
        try fill(atLeast: length)
        defer { buffer.removeFirst(length) }
        return Array(buffer[0..<length])
    }

    private func readChunkedBody() throws(ReadFailure) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let sizeLine = try readLine()
            let sizeText = sizeLine.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces() } ?? ""
            guard let size = Int(sizeText, radix: 16), size >= 0 else {
                throw .refused(.error(status: 400, "Malformed chunk size"))
            }
            if size == 0 {
                // Trailer fields, if any, end with an empty line; they are ignored.
                while try !readLine().isEmpty {}
                return body
            }
            guard body.count + size <= Self.maxBodyBytes else {
                throw .refused(.error(status: 413, "Body too large"))
            }
            try fill(atLeast: size + 2)
            body.append(contentsOf: buffer[0..<size])
            buffer.removeFirst(size + 2)
        }
    }

    /// One CRLF-terminated line, without the CRLF.
    private func readLine() throws(ReadFailure) -> String {
        while true {
            if let end = Self.find([13, 10], in: buffer, from: 0) {
                defer { buffer.removeFirst(end + 2) }
                return String(decoding: buffer[0..<end], as: UTF8.self)
            }
            guard buffer.count <= Self.maxHeadBytes else {
                throw .refused(.error(status: 400, "Chunk framing line too long"))
            }
            try fill()
        }
    }

    private func fill(atLeast count: Int) throws(ReadFailure) {
        while buffer.count < count { try fill() }
    }

    private func fill() throws(ReadFailure) {
        guard let received = DemoSocket.receive(fd, into: &buffer), received > 0 else { throw .closed }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count)
        where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }

    // MARK: - Writing

    /// False when the peer went away.
    func write(_ response: DemoResponse, to request: DemoRequest, keepAlive: Bool) -> Bool {
        DemoSocket.sendAll(fd, response.serialized(keepAlive: keepAlive, includeBody: request.method != "HEAD"))
    }
}
