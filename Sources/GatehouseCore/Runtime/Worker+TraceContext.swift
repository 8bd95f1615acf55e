import GatehouseHTTP

extension Worker {
    /// The request's valid `traceparent`, else a new trace from this worker's generator (no
    /// system call per request).
    func traceContext(for head: RequestHead) -> TraceContext {
        TraceContext.incoming(in: head) ?? TraceContext.make(using: &requestIDs)
    }
}
