import GatehouseConfig
import GatehouseGraphQL

/// Chooses the route each held operation is called through, from the gateway's own config:
///
/// - only routes to GraphQL upstreams that read calls by name (`persisted` other than `off`) and
///   whose `operations` list (when there is one) names the operation can serve it;
/// - an operation an `auth: none` route serves goes through the public door; the others through
///   the authenticated door;
/// - a query goes over GET to `<prefix>/<name>` when a `persisted: only` prefix route admitting GET
///   serves it (a cacheable URL); everything else is a POST by name, to an exact route first;
/// - routes of equal rank are taken in file order.
public enum RoutePlanner {
    public static func route(for name: String, kind: GraphQLOperationKind,
                             config: GatewayConfig) -> OperationRoute? {
        let serving = config.routes.filter { route in
            guard let upstream = config.upstream(named: route.upstream), upstream.kind == .graphql else { return false }
            guard route.persisted != .off else { return false }
            return route.operations?.contains(name) ?? true
        }
        let publicRoutes = serving.filter { $0.auth == .none }
        let door: OperationRoute.Door = publicRoutes.isEmpty ? .authenticated : .public
        let candidates = publicRoutes.isEmpty ? serving : publicRoutes
        if kind == .query,
           let route = candidates.first(where: { $0.isPrefix && $0.persisted == .only && $0.methods.contains("GET") }) {
            return OperationRoute(door: door, method: .get, path: route.matchPath + name, routePath: route.path)
        }
        let posting = candidates.filter { $0.methods.contains("POST") }
        if let route = posting.first(where: { !$0.isPrefix }) {
            return OperationRoute(door: door, method: .post, path: route.path, routePath: route.path)
        }
        if let route = posting.first {
            return OperationRoute(door: door, method: .post, path: route.matchPath + name, routePath: route.path)
        }
        return nil
    }
}
