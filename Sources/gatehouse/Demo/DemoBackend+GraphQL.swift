import Foundation
import GatehouseCore

/// The GraphQL side of the demo backend: the operation is picked by `operationName` when the
/// backend knows it, else by the first root field of the query text, and answered from canned or
/// in-memory data. Errors follow GraphQL servers: HTTP 200 with an `errors` array.
extension DemoBackend {
    /// The root fields the backend answers, by name.
    static let graphQLFields: Set<String> = [
        "createUserToken", "appsetting", "listMoviesByGenre", "getMovieByKey", "createMovie", "me", "viewer",
        "adventureList",
    ]

    /// How long the tokens `createUserToken` hands out stay valid.
    static let tokenLifetimeSeconds = 3600

    // MARK: - Dispatch

    func respondToGraphQL(_ request: DemoRequest) -> DemoResponse {
        if let serviceToken, request.header("X-Service-Token") != serviceToken {
            return Self.graphQLError("Unauthorized", code: "UNAUTHENTICATED")
        }
        guard let body = DemoJSON.object(from: request.body) else {
            return .error(status: 400, "Body must be a JSON object with a GraphQL query")
        }
        let variables = body["variables"] as? [String: Any] ?? [:]
        let operationName = body["operationName"] as? String

        var selection: DemoGraphQLSelection
        if let query = body["query"] as? String {
            do {
                selection = try DemoGraphQLScanner.firstSelection(in: query, operationName: operationName,
                                                                   variables: variables)
            } catch {
                return Self.graphQLError(error.message, code: error.code, executed: false)
            }
        } else if let operationName, Self.graphQLFields.contains(operationName) {
            // A call by name without text: the operation's variables are its field's arguments.
            selection = DemoGraphQLSelection(fieldName: operationName, responseKey: operationName, arguments: nil)
        } else {
            return .error(status: 400, "Body must carry a \"query\" string")
        }
        if let operationName, Self.graphQLFields.contains(operationName), operationName != selection.fieldName {
            selection = DemoGraphQLSelection(operationType: selection.operationType, fieldName: operationName,
                                             responseKey: operationName, arguments: nil)
        }
        let arguments = selection.arguments ?? variables
        return answer(selection, arguments: arguments, request: request)
    }

    private func answer(_ selection: DemoGraphQLSelection, arguments: [String: Any],
                        request: DemoRequest) -> DemoResponse {
        let result: Result<Any, DemoFieldError>
        switch selection.fieldName {
        case "createUserToken": result = createUserToken(arguments)
        case "appsetting": result = .success(["cdnUrl": "https://cdn.example.com/", "minVersion": "1.0.0"])
        case "listMoviesByGenre": result = listMoviesByGenre(arguments)
        case "getMovieByKey": result = getMovieByKey(arguments)
        case "createMovie": result = createMovie(arguments)
        case "me", "viewer": result = currentUser(request)
        case "adventureList": result = adventureList(arguments)
        default:
            let type = selection.operationType == "mutation" ? "Mutation" : "Query"
            return Self.graphQLError("Cannot query field \"\(selection.fieldName)\" on type \"\(type)\".",
                                     code: "GRAPHQL_VALIDATION_FAILED", executed: false)
        }
        switch result {
        case .success(let value):
            return .json(["data": [selection.responseKey: value]])
        case .failure(let failure):
            return Self.graphQLError(failure.message, code: failure.code)
        }
    }

    // MARK: - Fields

    private func createUserToken(_ arguments: [String: Any]) -> Result<Any, DemoFieldError> {
        guard let email = DemoJSON.string(arguments["email"]), !email.isEmpty,
              let password = DemoJSON.string(arguments["password"]), !password.isEmpty else {
            return .failure(DemoFieldError(message: "Invalid email or password", code: "BAD_USER_INPUT"))
        }
        let now = Int(Date().timeIntervalSince1970)
        let token = JWTMinter.hs256(secret: tokenSecret, claims: [
            ("sub", .string(email)),
            ("iat", .number(String(now))),
            ("exp", .number(String(now + Self.tokenLifetimeSeconds))),
        ])
        return .success(["token": token])
    }

    private func listMoviesByGenre(_ arguments: [String: Any]) -> Result<Any, DemoFieldError> {
        guard let genre = DemoJSON.string(arguments["genre"]) else {
            return .failure(.missingArgument("genre", type: "String!"))
        }
        let limit = DemoJSON.int(arguments["limit"]) ?? 10
        return .success(movies.movies(genre: genre, limit: limit).map(\.jsonObject))
    }

    private func getMovieByKey(_ arguments: [String: Any]) -> Result<Any, DemoFieldError> {
        guard let key = DemoJSON.string(arguments["key"]) ?? DemoJSON.int(arguments["key"]).map(String.init) else {
            return .failure(.missingArgument("key", type: "ID!"))
        }
        return .success(movies.movie(key: key)?.jsonObject ?? NSNull())
    }

    private func createMovie(_ arguments: [String: Any]) -> Result<Any, DemoFieldError> {
        guard let title = DemoJSON.string(arguments["title"]), !title.isEmpty else {
            return .failure(.missingArgument("title", type: "String!"))
        }
        guard let genre = DemoJSON.string(arguments["genre"]), !genre.isEmpty else {
            return .failure(.missingArgument("genre", type: "String!"))
        }
        let movie = movies.create(title: title, genre: genre, year: DemoJSON.int(arguments["year"]),
                                  rating: DemoJSON.double(arguments["rating"]))
        return .success(movie.jsonObject)
    }

    /// The subject the gateway injected from the verified token (`claims_to_headers`).
    private func currentUser(_ request: DemoRequest) -> Result<Any, DemoFieldError> {
        guard let userID = request.header("X-User-Id"), !userID.isEmpty else {
            return .failure(DemoFieldError(message: "Unauthorized", code: "UNAUTHENTICATED"))
        }
        return .success(["id": userID])
    }

    /// The AEM adventures as plain GraphQL; `filter: {slug: {_expressions: [{value: …}]}}` (the
    /// shape of AEM's `adventure-by-slug`) narrows the list to one slug.
    private func adventureList(_ arguments: [String: Any]) -> Result<Any, DemoFieldError> {
        var items = Self.adventures
        if let filter = arguments["filter"] as? [String: Any] {
            let expressions = (filter["slug"] as? [String: Any])?["_expressions"] as? [Any] ?? []
            let slugs = expressions.compactMap { ($0 as? [String: Any])?["value"] as? String }
            items = items.filter { slugs.contains($0.slug) }
        }
        return .success(["items": items.map(\.jsonObject)])
    }

    // MARK: - Errors

    /// HTTP 200 with `{"errors":[…],"data":null}`, as GraphQL servers answer. A request refused
    /// before execution (`executed: false`: syntax or unknown field) has no `data` member at all.
    static func graphQLError(_ message: String, code: String, executed: Bool = true) -> DemoResponse {
        var body: [String: Any] = ["errors": [["message": message, "extensions": ["code": code]]]]
        if executed { body["data"] = NSNull() }
        return .json(body)
    }
}

/// A field that cannot be answered; becomes one entry of the GraphQL `errors` array.
struct DemoFieldError: Error {
    var message: String
    var code: String

    static func missingArgument(_ name: String, type: String) -> DemoFieldError {
        DemoFieldError(message: "Argument \"\(name)\" of required type \"\(type)\" was not provided.",
                       code: "BAD_USER_INPUT")
    }
}
