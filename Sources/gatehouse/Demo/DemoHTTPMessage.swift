/// One request as the demo backend sees it: text fields decoded, the body as bytes.
struct DemoRequest {
    var method: String
    /// The path part of the request target, still percent-encoded.
    var path: String
    /// The part after `?`, without it; nil when the target has none.
    var query: String?
    var version: String
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    /// The first value of a header, the name matched case-insensitively.
    func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// HTTP/1.1 keeps the connection unless told `close`; HTTP/1.0 closes unless told `keep-alive`.
    var keepAlive: Bool {
        let options = (header("Connection") ?? "").lowercased()
            .split(separator: ",").map { $0.trimmingSpaces() }
        if version == "HTTP/1.0" { return options.contains("keep-alive") }
        return !options.contains("close")
    }
}

/// One response of the demo backend; always sent with a Content-Length.
struct DemoResponse {
    var status: Int
    var contentType = "application/json"
    var body: [UInt8]

    init(status: Int, contentType: String = "application/json", body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// `{"errors":[{"message":…}]}` with the given status.
    static func error(status: Int, _ message: String) -> DemoResponse {
        DemoResponse(status: status, body: DemoJSON.bytes(["errors": [["message": message]]]))
    }

    static func json(_ object: [String: Any], status: Int = 200) -> DemoResponse {
        DemoResponse(status: status, body: DemoJSON.bytes(object))
    }

    /// The serialized head and body; a response to HEAD carries the head only.
    func serialized(keepAlive: Bool, includeBody: Bool = true) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        head += "Content-Type: \(contentType)\r\n"
        head += "Content-Length: \(body.count)\r\n"
        head += "Server: gatehouse-demo-backend\r\n"
        if !keepAlive { head += "Connection: close\r\n" }
        head += "\r\n"
        return includeBody ? Array(head.utf8) + body : Array(head.utf8)
    }

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 413: "Content Too Large"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        default: "Status"
        }
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
