import GatehouseConfig
import GatehouseGraphQL
import Testing
@testable import GatehouseCore

/// An upload's `operations` part meets the route's operation policy as a JSON body would, every
/// operation of a batch included; a refusal comes before any upstream is taken.
struct UploadOperationPolicyTests {
    static let uploadText = "mutation uploadFile($file: Upload!) { uploadFile(file: $file) { sha256 } }"
    static let registry: OperationRegistry = {
        guard case .success(let registry) = OperationRegistry.load(sources: [(path: "upload.graphql", text: uploadText)]) else {
            return .empty
        }
        return registry
    }()

    static func freeForm(_ text: String) -> String {
        #"{"query":"\#(text)","variables":{"file":null}}"#
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let policy: OperationPolicy
        let operations: String
        /// nil: the upload may go upstream; otherwise the refusal's status.
        let status: Int?
        var testDescription: String { name }
    }

    static let free = freeForm("mutation uploadFile($file: Upload!) { uploadFile(file: $file) { sha256 } }")
    static let other = freeForm("mutation other($file: Upload!) { other(file: $file) }")
    static let byName = #"{"operationName":"uploadFile","variables":{"file":null}}"#

    static let rows: [Row] = [
        Row(name: "persisted allow, no list: anything", policy: OperationPolicy(persisted: .allow), operations: other, status: nil),
        Row(name: "persisted only: free-form text 403", policy: OperationPolicy(persisted: .only), operations: free, status: 403),
        Row(name: "persisted only: a stored operation by name passes", policy: OperationPolicy(persisted: .only),
            operations: byName, status: nil),
        Row(name: "persisted only: an unknown name 400", policy: OperationPolicy(persisted: .only),
            operations: #"{"operationName":"nope","variables":{"file":null}}"#, status: 400),
        Row(name: "allow-list: listed name passes", policy: OperationPolicy(persisted: .allow, allowList: ["uploadFile"]),
            operations: free, status: nil),
        Row(name: "allow-list: unlisted name 403", policy: OperationPolicy(persisted: .allow, allowList: ["uploadFile"]),
            operations: other, status: 403),
        Row(name: "allow-list: GraphQL syntax error 400", policy: OperationPolicy(persisted: .allow, allowList: ["uploadFile"]),
            operations: freeForm("mutation {"), status: 400),
        Row(name: "batch: every operation passes", policy: OperationPolicy(persisted: .allow, allowList: ["uploadFile"]),
            operations: "[\(free),\(free)]", status: nil),
        Row(name: "batch: one unlisted operation 403", policy: OperationPolicy(persisted: .allow, allowList: ["uploadFile"]),
            operations: "[\(free),\(other)]", status: 403),
        Row(name: "batch: empty 400", policy: OperationPolicy(persisted: .only), operations: "[]", status: 400),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) {
        let bytes = Array(row.operations.utf8)
        let refusal = row.policy.refusal(forUploadOperations: bytes, parsed: try? JSONReader.parse(bytes),
                                         registry: Self.registry)
        #expect(refusal.map { ErrorEnvelope.mapping(for: $0.kind).status } == row.status)
    }
}
