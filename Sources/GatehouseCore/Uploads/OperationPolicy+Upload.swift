import GatehouseGraphQL

// An upload's `operations` part through the route's operation policy: the same decision a JSON
// POST body gets, for each operation of a batch. The multipart body is forwarded as sent, so a
// decision that would rewrite the request (a stored operation called by name or hash) approves
// the operation without substituting its document into the upload: the upstream is sent the
// call as the client wrote it.

extension OperationPolicy {
    /// nil when every operation the upload carries passes; otherwise the refusal.
    /// - Parameters:
    ///   - operations: the `operations` part as received (an object, or an array for a batch).
    ///   - parsed: the same, parsed (`UploadManifest.operationsValue`).
    func refusal(forUploadOperations operations: [UInt8], parsed: JSONValue?,
                 registry: OperationRegistry) -> GatewayError? {
        guard inspectsRequests else { return nil }
        guard let batch = parsed?.arrayValue else { return refusal(forUploadOperation: operations, registry: registry) }
        guard !batch.isEmpty else { return GatewayError(.badRequest, "The upload's operations batch is empty.") }
        for operation in batch {
            if let refusal = refusal(forUploadOperation: operation.serializedBytes, registry: registry) { return refusal }
        }
        return nil
    }

    private func refusal(forUploadOperation body: [UInt8], registry: OperationRegistry) -> GatewayError? {
        let decision = body.withUnsafeBytes {
            decide(method: .post, pathRemainder: nil, query: nil, body: $0, registry: registry)
        }
        switch decision {
        case .forwardUnchanged, .forwardBody:
            return nil
        case .aemGet:
            return GatewayError(.badRequest, "A persisted AEM query cannot carry an upload.")
        case .refuse(let error):
            return error
        }
    }
}
