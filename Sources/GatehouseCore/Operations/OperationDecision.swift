/// What the proxy does with a request after the operation policy looked at it.
public enum OperationDecision: Sendable, Equatable {
    /// Send the request as the client wrote it.
    case forwardUnchanged
    /// Send `POST <upstream path>` with this body (`{"query":…,"operationName":…,"variables":…}`),
    /// `Content-Type: application/json` and a Content-Length for it, whatever the client's method
    /// and body were; the client's query string is not forwarded.
    case forwardBody([UInt8])
    /// Send `GET` to this path and query on the AEM upstream (`/graphql/execute.json/…`), without
    /// a body; it replaces the route's upstream path and the client's query string.
    case aemGet(pathAndQuery: [UInt8])
    /// Answer the client with this error; nothing goes upstream.
    case refuse(GatewayError)
}
