/// Finds the route for a path: exact routes before prefix routes, longer prefixes before
/// shorter ones, case-sensitive, on the raw path bytes.
public struct Router: Sendable {
    private let routes: [CompiledRoute]  // in match order

    public init(routes: [CompiledRoute]) {
        let exact = routes.filter { !$0.isPrefix }
        let prefixes = routes.filter(\.isPrefix).sorted { $0.matchBytes.count > $1.matchBytes.count }
        self.routes = exact + prefixes
    }

    /// The matching route, or nil.
    public func match(_ path: UnsafeRawBufferPointer) -> CompiledRoute? {
        for route in routes {
            let pattern = route.matchBytes
            if route.isPrefix {
                if path.count >= pattern.count && Self.equal(path, 0, pattern) { return route }
            } else if path.count == pattern.count && Self.equal(path, 0, pattern) {
                return route
            }
        }
        return nil
    }

    @inline(__always)
    private static func equal(_ path: UnsafeRawBufferPointer, _ offset: Int, _ pattern: [UInt8]) -> Bool {
        pattern.withUnsafeBytes { p in
            memcmp(path.baseAddress! + offset, p.baseAddress!, p.count) == 0
        }
    }
}

import Glibc
