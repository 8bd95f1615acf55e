import GatehouseHTTP
/// The AEM side of the demo backend: persisted queries read with
/// `GET /graphql/execute.json/<aemConfig>/<name>;k=v;…`, answered like AEM does — HTTP 200 with
/// data, or HTTP 200 with a GraphQL `errors` array.
extension DemoBackend {
    /// An adventure of the WKND sample site, as the persisted queries return it.
    struct Adventure {
        var title: String
        var slug: String
        var price: Int
        var tripLength: String

        var jsonObject: [String: Any] {
            ["title": title, "slug": slug, "price": price, "tripLength": tripLength]
        }
    }

    static let adventures: [Adventure] = [
        Adventure(title: "Bali Surf Camp", slug: "bali-surf-camp", price: 5000, tripLength: "6 Days"),
        Adventure(title: "Climbing New Zealand", slug: "climbing-new-zealand", price: 900, tripLength: "2 Days"),
        Adventure(title: "Cycling Tuscany", slug: "cycling-tuscany", price: 4500, tripLength: "6 Days"),
        Adventure(title: "Ski Touring Mont Blanc", slug: "ski-touring-mont-blanc", price: 3500,
                  tripLength: "4 Days"),
    ]

    // MARK: - Persisted queries

    /// `pathRemainder` is what follows `/graphql/execute.json/`: `<config>/<name>;k=v;…`.
    func respondToPersistedQuery(pathRemainder: String) -> DemoResponse {
        let notFound = DemoResponse.json(["errors": [["message": "Persisted query not found"]]])
        guard let slash = pathRemainder.firstIndex(of: "/"),
              Self.percentDecoded(pathRemainder[..<slash]) == aemConfig else { return notFound }

        let parts = pathRemainder[pathRemainder.index(after: slash)...].split(separator: ";",
                                                                              omittingEmptySubsequences: false)
        guard let name = parts.first.flatMap({ Self.percentDecoded($0) }) else { return notFound }
        var variables: [String: String] = [:]
        for part in parts.dropFirst() where !part.isEmpty {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = Self.percentDecoded(pieces[0]),
                  let value = Self.percentDecoded(pieces.count > 1 ? pieces[1] : "") else {
                return .error(status: 400, "Malformed persisted query variables")
            }
            variables[key] = value
        }

        switch name {
        case "adventures-all":
            return Self.adventureList(Self.adventures)
        case "adventure-by-slug":
            let slug = variables["slug"]
            return Self.adventureList(Self.adventures.filter { $0.slug == slug })
        default:
            return notFound
        }
    }

    private static func adventureList(_ items: [Adventure]) -> DemoResponse {
        .json(["data": ["adventureList": ["items": items.map(\.jsonObject)]]])
    }

    // MARK: - Percent-decoding

    /// `%XX` escapes decoded as UTF-8; nil for a broken escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        PercentDecoding.decode(Array(text.utf8)[...], plusIsSpace: false)
    }
}
