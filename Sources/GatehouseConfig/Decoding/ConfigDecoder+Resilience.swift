/// `upstreams.<name>`: endpoints, balancing, health checks, outlier ejection, retries.
extension ConfigDecoder {
    /// Reads the resilience keys of one upstream into `upstream`.
    func resilience(_ map: inout MappingReader, _ path: String, into upstream: inout UpstreamConfig) {
        if let entry = map.take("endpoints") {
            let endpointsPath = path.appendingKey("endpoints")
            if let items = list(entry.value, endpointsPath) {
                if items.isEmpty {
                    report(endpointsPath, "list at least one endpoint, or leave the key out", at: entry.value.mark)
                }
                for (index, item) in items.enumerated() {
                    let itemPath = endpointsPath.appendingIndex(index)
                    guard let url = upstreamURL(item, itemPath) else { continue }
                    if url.scheme != upstream.url.scheme {
                        report(itemPath, "must use the url's scheme (\(upstream.url.scheme.rawValue)://)", at: item.mark)
                    }
                    upstream.endpoints.append(url)
                }
            }
        }
        if let interval = map.value("resolve_interval", positiveDuration) { upstream.resolveInterval = interval }
        if let entry = map.take("balance") {
            let balancePath = path.appendingKey("balance")
            if let text = string(entry.value, balancePath) {
                if let strategy = BalanceStrategy(rawValue: text) {
                    upstream.balance = strategy
                } else {
                    report(balancePath, "unknown balance \"\(text)\" (expected round_robin or least_request)",
                           at: entry.value.mark)
                }
            }
        }
        if let check = map.value("health_check", healthCheck) { upstream.healthCheck = check }
        if let outlier = map.value("outlier", outlier) { upstream.outlier = outlier }
        if let retry = map.value("retry", retry) { upstream.retry = retry }
        if let count = map.value("max_pending", { self.integer($0, $1, in: 0...Int.max) }) { upstream.maxPending = count }
    }

    private func percent(_ node: YAMLNode, _ path: String) -> Int? {
        parsed(node, path, expected: "a percentage such as 20%", PercentSyntax.parse)
    }

    private func healthCheck(_ node: YAMLNode, _ path: String) -> HealthCheckConfig? {
        guard var map = mapping(node, path) else { return nil }
        var check = HealthCheckConfig()
        if let entry = map.take("path") {
            let checkPath = path.appendingKey("path")
            if let text = nonEmptyString(entry.value, checkPath) {
                if let problem = HTTPSyntax.upstreamPathProblem(text) {
                    report(checkPath, problem.message, at: entry.value.mark)
                } else {
                    check.path = text
                }
            }
        }
        if let interval = map.value("interval", positiveDuration) { check.interval = interval }
        if let timeout = map.value("timeout", positiveDuration) { check.timeout = timeout }
        if let count = map.value("healthy", { self.integer($0, $1, in: 1...Int.max) }) { check.healthy = count }
        if let count = map.value("unhealthy", { self.integer($0, $1, in: 1...Int.max) }) { check.unhealthy = count }
        if check.timeout > check.interval {
            report(path.appendingKey("timeout"), "must not exceed the interval (\(check.interval))", at: map.mark)
        }
        map.finish()
        return check
    }

    private func outlier(_ node: YAMLNode, _ path: String) -> OutlierConfig? {
        guard var map = mapping(node, path) else { return nil }
        var outlier = OutlierConfig()
        if let count = map.value("consecutive_failures", { self.integer($0, $1, in: 1...Int.max) }) {
            outlier.consecutiveFailures = count
        }
        if let ejection = map.value("ejection", positiveDuration) { outlier.ejection = ejection }
        if let share = map.value("max_ejected", percent) { outlier.maxEjectedPercent = share }
        map.finish()
        return outlier
    }

    private func retry(_ node: YAMLNode, _ path: String) -> RetryConfig? {
        guard var map = mapping(node, path) else { return nil }
        var retry = RetryConfig()
        if let count = map.value("attempts", { self.integer($0, $1, in: 1...Self.maxRetryAttempts) }) {
            retry.attempts = count
        }
        if let conditions = map.value("on", { self.list($0, $1, self.retryCondition) }) { retry.on = Set(conditions) }
        if let share = map.value("budget", percent) { retry.budgetPercent = share }
        map.finish()
        return retry
    }

    /// Beyond a handful of tries a request only adds load to an upstream that is struggling.
    private static let maxRetryAttempts = 5

    private func retryCondition(_ node: YAMLNode, _ path: String) -> RetryCondition? {
        guard let scalar = scalar(node, path, expected: "connect, reset or a status") else { return nil }
        switch scalar.text {
        case "connect": return .connect
        case "reset": return .reset
        default:
            if let code = Int(scalar.text), RetryCondition.retryableStatuses.contains(code) { return .status(code) }
            report(path, "expected connect, reset, 502, 503 or 504, got \"\(scalar.text)\"", at: node.mark)
            return nil
        }
    }
}
