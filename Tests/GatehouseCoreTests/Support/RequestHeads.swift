import GatehouseHTTP

/// Request heads for unit tests, parsed by the gateway's own parser.
enum RequestHeads {
    /// `GET <target>` with a Host line and `headers` ("Name: value\r\n" each).
    static func get(_ target: String = "/g", headers: String = "") -> RequestHead {
        let raw = Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\(headers)\r\n".utf8)
        var scanned = 0
        guard case .complete(let head, _) = raw.withUnsafeBytes({
            RequestHeadParser(limits: HTTPLimits()).parse($0, scanned: &scanned)
        }) else { fatalError("test head does not parse") }
        return head
    }
}
