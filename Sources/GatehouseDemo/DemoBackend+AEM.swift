import GatehouseGraphQL
import GatehouseHTTP

/// The AEM side of the demo backend: persisted queries read with
/// `GET /graphql/execute.json/<aemConfig>/<name>;k=v;…`, answered like AEM does — HTTP 200 with
/// data, or HTTP 200 with a GraphQL `errors` array. AEM stores each persisted query as GraphQL
/// text and runs it with the path's variables; so does the demo, with its own executor.
extension DemoBackend {
    /// The persisted queries of the WKND sample site, by name (the same operations as
    /// `config/operations/adventures.graphql`).
    static let persistedQueries: [String: String] = [
        "adventures-all": "query { adventureList { items { title slug price tripLength } } }",
        "adventure-by-slug": """
            query ($slug: String) {
              adventureList(filter: {slug: {_expressions: [{value: $slug}]}}) { items { title slug price tripLength } }
            }
            """,
    ]

    /// `pathRemainder` is what follows `/graphql/execute.json/`: `<config>/<name>;k=v;…`.
    func respondToPersistedQuery(pathRemainder: Substring) -> DemoResponse {
        let notFound = DemoResponse.error(status: 200, "Persisted query not found")
        guard let slash = pathRemainder.firstIndex(of: "/"),
              Self.percentDecoded(pathRemainder[..<slash]) == aemConfig else { return notFound }

        let parts = pathRemainder[pathRemainder.index(after: slash)...].split(separator: ";",
                                                                              omittingEmptySubsequences: false)
        guard let name = parts.first.flatMap({ Self.percentDecoded($0) }),
              let query = Self.persistedQueries[name] else { return notFound }
        var variables = JSONObject()
        for part in parts.dropFirst() where !part.isEmpty {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = Self.percentDecoded(pieces[0]),
                  let value = Self.percentDecoded(pieces.count > 1 ? pieces[1] : "") else {
                return .error(status: 400, "Malformed persisted query variables")
            }
            variables[key] = .string(value)
        }
        return .json(executor.execute(query: query, operationName: nil, variables: variables,
                                      context: DemoRootResolvers.Context()))
    }

    /// `%XX` escapes decoded as UTF-8; nil for a broken escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        PercentDecoding.decode(Array(text.utf8)[...], plusIsSpace: false)
    }
}
