import GatehouseHTTP
import GatehouseIO

/// An upload's body on its way through the exchange (README, "Uploads"): each piece passes the
/// `UploadStream` before it is forwarded; the preamble is held until the phases have checked it,
/// then queued after the upstream request head, and the rest streams.
extension Exchange {
    /// Checks body bytes before they go anywhere; `last` when they end the body. False when the
    /// upload was refused (the exchange has failed: a 400 or 413, or an abort once the response
    /// began; an upstream that had the head is dropped before it has a complete request).
    @inline(__always)
    func inspectUpload(_ bytes: UnsafeRawBufferPointer, last: Bool) -> Bool {
        guard let upload else { return true }
        return refuseUpload(upload.feed(bytes) ?? (last ? upload.bodyEnded() : nil))
    }

    /// The last chunk of a chunked body arrived: before the upstream is told, the upload must be
    /// complete. False when it was refused.
    func inspectUploadEnd() -> Bool {
        guard let upload else { return true }
        return refuseUpload(upload.bodyEnded())
    }

    private func refuseUpload(_ refusal: GatewayError?) -> Bool {
        guard let refusal else { return true }
        keepAlive = false
        fail(refusal)
        return false
    }

    /// While the preamble is being read: it is complete, the phases may look at it.
    var uploadPreambleRead: Bool {
        guard let upload, case .buffering = requestSide else { return false }
        return upload.isPreambleRead
    }

    /// The held preamble, right after the request head (as one chunk when the client sent chunks;
    /// with the last chunk when the whole body was read with it).
    func queueHeldUploadBytes(on upstream: UpstreamConnection) {
        guard let upload else { return }
        let held = upload.takeHeldBytes()
        guard case .chunked = head.framing else { return upstream.output.append(held) }
        held.withUnsafeBytes { upstream.output.appendChunk($0) }
        if requestSide.isComplete { upstream.output.append(ChunkedEncoder.lastChunk) }
    }
}
