import GatehouseCore
import GatehouseGraphQL

/// The resolver table: how each field of `Query` and `Mutation` is answered, from canned data,
/// the movie store and the request. Field names and arguments are those of `DemoSchema`; the
/// executor has checked and coerced the arguments before a resolver runs.
struct DemoRootResolvers {
    /// What a resolver may know about the request besides its arguments.
    struct Context {
        /// `X-User-Id`: the subject the gateway copied from the verified token (`claims_to_headers`).
        var userID: String?
    }

    /// How long the tokens `createUserToken` hands out stay valid.
    static let tokenLifetimeSeconds = 3600

    static let appSetting = DemoObject("AppSetting", [
        "cdnUrl": .string("https://cdn.example.com/"),
        "minVersion": .string("1.0.0"),
    ])

    let movies: DemoMovieStore
    /// Signs the tokens `createUserToken` hands out; the gateway's `user-jwt` checks them with it.
    let tokenSecret: String
    /// Unix seconds, injected so tests can pin token times.
    let clock: @Sendable () -> Int

    func resolve(_ typeName: String, _ fieldName: String, _ arguments: DemoArguments,
                 _ context: Context) throws(DemoFieldError) -> DemoValue {
        switch (typeName, fieldName) {
        case (DemoSchema.queryType, "appsetting"):
            return .object(Self.appSetting)
        case (DemoSchema.queryType, "me"), (DemoSchema.queryType, "viewer"):
            guard let userID = context.userID, !userID.isEmpty else { throw .unauthenticated }
            return .object(DemoObject("User", ["id": .string(userID)]))
        case (DemoSchema.queryType, "listMoviesByGenre"):
            let found = movies.movies(genre: arguments.string("genre") ?? "", limit: arguments.int("limit") ?? 0)
            return .list(found.map { .object($0.object) })
        case (DemoSchema.queryType, "getMovieByKey"):
            return .optional(movies.movie(key: arguments.id("key") ?? "")) { .object($0.object) }
        case (DemoSchema.queryType, "search"):
            return search(arguments.string("text") ?? "")
        case (DemoSchema.queryType, "adventureList"):
            return adventureList(filter: arguments["filter"])
        case (DemoSchema.mutationType, "createUserToken"):
            return try createUserToken(arguments)
        case (DemoSchema.mutationType, "createMovie"):
            return try createMovie(arguments)
        default:
            throw DemoFieldError(message: "No resolver for \(typeName).\(fieldName)", code: DemoErrorCode.internalError)
        }
    }

    // MARK: - Fields

    private func createUserToken(_ arguments: DemoArguments) throws(DemoFieldError) -> DemoValue {
        guard let email = arguments.string("email"), !email.isEmpty,
              let password = arguments.string("password"), !password.isEmpty else {
            throw .badInput("Invalid email or password")
        }
        let now = clock()
        let token = JWTMinter.hs256(secret: tokenSecret, claims: [
            ("sub", .string(email)),
            ("iat", .number(String(now))),
            ("exp", .number(String(now + Self.tokenLifetimeSeconds))),
        ])
        return .object(DemoObject("UserToken", ["token": .string(token)]))
    }

    private func createMovie(_ arguments: DemoArguments) throws(DemoFieldError) -> DemoValue {
        guard let title = arguments.string("title"), !title.isEmpty else { throw .badInput("A movie needs a title") }
        guard let genre = arguments.string("genre"), !genre.isEmpty else { throw .badInput("A movie needs a genre") }
        let movie = movies.create(title: title, genre: genre, year: arguments.int("year"),
                                  rating: arguments.double("rating"), aspectRatio: arguments.string("aspectRatio"))
        return .object(movie.object)
    }

    /// Movies and adventures whose title contains `text`: the `SearchResult` union.
    private func search(_ text: String) -> DemoValue {
        let wanted = text.lowercased()
        let adventures = DemoAdventure.catalogue.filter { $0.title.lowercased().contains(text: wanted) }
        return .list(movies.movies(titleContaining: text).map { .object($0.object) }
            + adventures.map { .object($0.object) })
    }

    /// The AEM adventures; `filter: {slug: {_expressions: [{value: …}]}}` (the shape of AEM's
    /// `adventure-by-slug`) narrows the list to the slugs named.
    private func adventureList(filter: JSONValue?) -> DemoValue {
        var items = DemoAdventure.catalogue
        if let filter {
            let expressions = filter["slug"]?["_expressions"]?.arrayValue ?? []
            let slugs = expressions.compactMap { $0["value"]?.stringValue }
            items = items.filter { slugs.contains($0.slug) }
        }
        return .object(DemoObject("AdventureModelResults", ["items": .list(items.map { .object($0.object) })]))
    }
}
