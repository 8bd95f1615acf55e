/// Running the request phases (`RequestPhase`) in order, waiting where a phase asks to, then
/// forwarding. A wait ends with a loop event (the body read whole, an answer delivered) or is
/// cancelled by the client going away or a deadline (`Exchange.cancelWait()`).
extension Exchange {
    func run() {
        runPhases(from: .framing)
    }

    func runPhases(from first: RequestPhase) {
        var phase: RequestPhase? = first
        while let current = phase {
            switch run(current) {
            case .next:
                phase = current.following
            case .respond(let error):
                return respond(error)
            case .wait(let pending):
                return wait(for: pending, in: current)
            case .serve(let reply):
                return serveCached(reply)
            }
        }
        phasesPassed()
    }

    /// Every phase passed: forward, unless the token is still to come in `connection_init`
    /// (the gateway then answers the WebSocket handshake itself).
    private func phasesPassed() {
        if case .connectionInit(let field) = webSocket?.credentials { return acceptForConnectionInit(field: field) }
        forward()
    }

    @inline(__always)
    private func run(_ phase: RequestPhase) -> PhaseResult {
        switch phase {
        case .framing: FramingPhase.run(self)
        case .route: RoutePhase.run(self)
        case .limitBeforeAuth: checkRateLimits(.beforeAuthentication)
        case .limitAfterAuth: checkRateLimits(.afterAuthentication)
        case .authenticate: AuthenticationPhase.run(self)
        case .uploadPreamble: UploadPreamblePhase.run(self)
        case .operationPolicy: OperationPolicyPhase.run(self)
        case .cache: CachePhase.run(self)
        case .bufferBody: BodyBufferingPhase.run(self)
        }
    }

    private func wait(for pending: Pending, in phase: RequestPhase) {
        switch pending {
        case .requestBody:
            // Bounded by `body_timeout`; the route timeout starts when the request is forwarded.
            stage = .readingBody(resume: phase)
            startReadingBody(streaming: false)
        case .answer(let answer):
            stage = .waiting(phase, answer)
            armRouteDeadlineIfNeeded()
            armDeadline()
            answer.whenComplete(resuming: self, in: phase)
        }
    }

    /// The answer a phase waits for (`PendingAnswer`), unless the exchange has moved on.
    func answerArrived(_ result: PhaseResult, in phase: RequestPhase) {
        guard case .waiting(phase, _) = stage else { return }
        resume(after: phase, with: result)
    }

    /// A waiting phase's verdict arrived.
    func resume(after phase: RequestPhase, with result: PhaseResult) {
        stage = .phases
        switch result {
        case .next:
            if let following = phase.following { runPhases(from: following) } else { phasesPassed() }
        case .respond(let error):
            respond(error)
        case .wait(let pending):
            wait(for: pending, in: phase)
        case .serve(let reply):
            serveCached(reply)
        }
    }

    /// The body a phase waited for is complete: that phase runs again and now sees it.
    func bodyBuffered() {
        guard case .readingBody(let phase) = stage else { return }
        stage = .phases
        runPhases(from: phase)
    }

    /// Drops a wait in progress (client gone, deadline passed).
    func cancelWait() {
        if case .waiting(_, let answer) = stage { answer.cancel() }
    }
}
