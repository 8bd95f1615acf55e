import GatehouseGraphQL

/// A named operation held by the gateway, ready to send upstream as a normal GraphQL POST.
public struct PersistedOperation: Sendable, Equatable {
    public var name: String
    public var kind: GraphQLOperationKind
    /// The operation's definition followed by every fragment it uses (transitively), sorted by
    /// name, joined by "\n": exactly the text sent upstream and hashed for `sha256Hex`.
    public var text: String
    public var textBytes: [UInt8]
    public var variables: [VariableDefinition]
    /// Lowercase hex SHA-256 of `textBytes`.
    public var sha256Hex: String
    /// `{"query":"<text>","operationName":"<name>","variables":` — the fixed start of every
    /// request body for this operation, built once at load time.
    let requestBodyPrefix: [UInt8]

    public init(name: String, kind: GraphQLOperationKind, text: String, variables: [VariableDefinition]) {
        self.name = name
        self.kind = kind
        self.text = text
        self.textBytes = Array(text.utf8)
        self.variables = variables
        self.sha256Hex = PersistedQueryHash.sha256Hex(textBytes)
        var prefix: [UInt8] = []
        prefix.reserveCapacity(textBytes.count + name.utf8.count + 64)
        prefix.append(contentsOf: #"{"query":"#.utf8)
        JSONValue.appendQuoted(text, to: &prefix)
        prefix.append(contentsOf: #","operationName":"#.utf8)
        JSONValue.appendQuoted(name, to: &prefix)
        prefix.append(contentsOf: #","variables":"#.utf8)
        requestBodyPrefix = prefix
    }

    /// The GraphQL POST body `{"query":…,"operationName":…,"variables":{…}}` for a call with
    /// these variables (an empty object when there are none).
    public func requestBody(variables: JSONObject?) -> [UInt8] {
        var body = requestBodyPrefix
        if let variables {
            variables.serialized(into: &body)
        } else {
            body.append(contentsOf: "{}".utf8)
        }
        body.append(UInt8(ascii: "}"))
        return body
    }
}
