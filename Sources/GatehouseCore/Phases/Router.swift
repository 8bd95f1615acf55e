import GatehouseHTTP

/// Finds the route for a path: exact routes before prefix routes, longer prefixes before
/// shorter ones, case-sensitive, on the raw path bytes.
///
/// Exact routes are grouped by the length of their path, so a request compares only the routes
/// its path could equal (usually one) however many the configuration has; prefixes are tried
/// longest first. A class: the request path reads it through the snapshot, and a struct of three
/// lists would be copied there, each list retained and released on every request.
public final class Router: Sendable {
    /// Exact routes by the length of their path (shortest first), each length in
    /// configuration order.
    private let exact: [CompiledRoute]
    /// `exact[exactStart[n]..<exactStart[n + 1]]` are the exact routes whose path is n bytes
    /// long. Offsets into one list rather than a list per length: reading an inner list would
    /// retain and release it on every request.
    private let exactStart: [Int]
    /// Prefix routes, longest first.
    private let prefixes: [CompiledRoute]

    public init(routes: [CompiledRoute]) {
        let exact = routes.filter { !$0.isPrefix }.enumerated()
            .sorted { ($0.element.matchBytes.count, $0.offset) < ($1.element.matchBytes.count, $1.offset) }
            .map(\.element)
        var start = Array(repeating: 0, count: (exact.last?.matchBytes.count ?? -1) + 2)
        for route in exact { start[route.matchBytes.count + 1] += 1 }
        for length in start.indices.dropFirst() { start[length] += start[length - 1] }
        self.exact = exact
        exactStart = start
        prefixes = routes.filter(\.isPrefix).sorted { $0.matchBytes.count > $1.matchBytes.count }
    }

    /// The matching route, or nil.
    public func match(_ path: UnsafeRawBufferPointer) -> CompiledRoute? {
        if path.count + 1 < exactStart.count {
            var index = exactStart[path.count]
            let end = exactStart[path.count + 1]
            while index < end {
                let route = exact[index]
                if route.matchBytes.equals(path) { return route }
                index += 1
            }
        }
        for route in prefixes where route.matchBytes.isPrefix(of: path) { return route }
        return nil
    }
}
