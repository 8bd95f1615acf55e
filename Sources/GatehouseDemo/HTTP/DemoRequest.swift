import GatehouseHTTP

/// One request as the demo backend sees it: the head `RequestHeadParser` produced and the
/// whole body.
public struct DemoRequest: Sendable {
    public var head: RequestHead
    public var body: [UInt8]

    public init(head: RequestHead, body: [UInt8]) {
        self.head = head
        self.body = body
    }

    public var method: HTTPMethod { head.methodKind }
    /// The path part of the target, still percent-encoded.
    public var path: String { head.string(head.path) }

    /// The first value of a header, the name given in lowercase.
    public func header(_ lowercaseName: StaticString) -> String? {
        head.headerValue(named: lowercaseName).map(head.string)
    }
}
