import GatehouseGraphQL
import GatehouseHTTP

/// One response of the demo backend: a status and a JSON body, always sent with a Content-Length.
public struct DemoResponse: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }

    static func json(_ value: JSONValue, status: Int = 200) -> DemoResponse {
        DemoResponse(status: status, body: value.serializedBytes)
    }

    /// `{"errors":[{"message":…}]}`: the answer to a request that is not GraphQL at all.
    static func error(status: Int, _ message: String) -> DemoResponse {
        .json(.object(["errors": .array([.object(["message": .string(message)])])]), status: status)
    }

    // MARK: - Serialization

    static let serverName: StaticString = "gatehouse-demo-backend"

    /// The head and body on the wire; a response to HEAD carries the head only.
    func serialized(keepAlive: Bool, includeBody: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(body.count + 160)
        HTTPStatus.appendStatusLine(status, to: &bytes)
        bytes.append(ascii: "Content-Type: application/json\r\nContent-Length: ")
        bytes.append(decimal: body.count)
        bytes.append(ascii: "\r\nServer: ")
        bytes.append(ascii: Self.serverName)
        bytes.append(ascii: "\r\n")
        if !keepAlive { bytes.append(ascii: "Connection: close\r\n") }
        bytes.append(ascii: "\r\n")
        if includeBody { bytes.append(contentsOf: body) }
        return bytes
    }

    /// `100 Continue`, for clients that wait for it before sending a body (curl does, a second).
    static let continueLine: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
