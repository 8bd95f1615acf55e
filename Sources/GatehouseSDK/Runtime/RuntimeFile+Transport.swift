// Requests, responses and errors.

extension RuntimeFile {
    static let transport = RuntimeFile(name: "GatehouseClient+Transport.swift", contents: #"""
    import Foundation
    #if canImport(FoundationNetworking)
    import FoundationNetworking
    #endif

    extension GatehouseClient {
        /// `GET <path>?<query>`: a query called by name on a `persisted: only` prefix route.
        func get<Result: Decodable>(_ result: Result.Type, path: String, query: QueryParameters,
                                    door: GatewayDoor, fetchPolicy: FetchPolicy) async throws -> Result {
            guard let url = connector.url(path: path, query: query.encoded) else { throw GatehouseError.badURL(path) }
            var request = URLRequest(url: url)
            request.httpMethod = "GET"
            request.setValue(fetchPolicy.cacheControl, forHTTPHeaderField: "Cache-Control")
            return try await send(request, door: door)
        }

        /// `POST <path>` with `{"operationName":…,"variables":…}`: no query text, the gateway holds it.
        func post<Result: Decodable, Variables: Encodable & Sendable>(
            _ result: Result.Type, path: String, operationName: String, variables: Variables,
            door: GatewayDoor, fetchPolicy: FetchPolicy?
        ) async throws -> Result {
            guard let url = connector.url(path: path, query: "") else { throw GatehouseError.badURL(path) }
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue(fetchPolicy?.cacheControl, forHTTPHeaderField: "Cache-Control")
            request.httpBody = try JSONCoding.encoder().encode(
                CallByName(operationName: operationName, variables: variables))
            return try await send(request, door: door)
        }

        private func send<Result: Decodable>(_ request: URLRequest, door: GatewayDoor) async throws -> Result {
            var request = request
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            if door == .authenticated, let token = try await tokenProvider() {
                request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            }
            let body: Foundation.Data
            let response: URLResponse
            do {
                (body, response) = try await session.data(for: request)
            } catch {
                throw GatehouseError.network(error)
            }
            guard let http = response as? HTTPURLResponse else { throw GatehouseError.network(nil) }
            guard (200..<300).contains(http.statusCode) else {
                throw GatehouseError(status: http.statusCode, headers: http, body: body)
            }
            let decoded = try JSONCoding.decoder().decode(GraphQLResponse<Result>.self, from: body)
            if let data = decoded.data { return data }
            throw GatehouseError(graphQLErrors: decoded.errors ?? [], status: http.statusCode, headers: http)
        }
    }

    /// The body of a call by name.
    struct CallByName<Variables: Encodable>: Encodable {
        var operationName: String
        var variables: Variables
    }

    /// Variables of an operation that has none: `{}`.
    public struct NoVariables: Encodable, Sendable, Hashable {
        public init() {}
    }

    /// `{"data":…,"errors":[…]}`.
    struct GraphQLResponse<Payload: Decodable>: Decodable {
        var data: Payload?
        var errors: [ErrorEnvelope.Entry]?
    }

    /// The gateway's error envelope, `{"errors":[{"message":…,"extensions":{"code":…,…}}]}`,
    /// which is also the shape of GraphQL errors.
    struct ErrorEnvelope: Decodable {
        struct Entry: Decodable {
            var message: String?
            var extensions: Extensions?
        }

        struct Extensions: Decodable {
            var code: String?
            var status: Int?
            var retryable: Bool?
            var retryAfter: Double?
            var requestId: String?
        }

        var errors: [Entry]?
    }
    """#)

    static let gatehouseError = RuntimeFile(name: "GatehouseError.swift", contents: #"""
    import Foundation
    #if canImport(FoundationNetworking)
    import FoundationNetworking
    #endif

    /// A failed call, mirroring the gateway's error envelope: every failure the gateway produces,
    /// every upstream 401/403/429, GraphQL errors without data, and network failures.
    public struct GatehouseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// `UNAUTHENTICATED`, `RATE_LIMITED`, `CACHE_MISS`, …; `NETWORK_ERROR` when no answer came.
        public var code: String
        /// The HTTP status; 0 when no answer came.
        public var status: Int
        public var retryable: Bool
        /// Seconds to wait before retrying (429), from `extensions.retryAfter` or `Retry-After`.
        public var retryAfter: Int?
        public var requestId: String?
        public var message: String

        public init(code: String, status: Int, retryable: Bool, retryAfter: Int? = nil,
                    requestId: String? = nil, message: String) {
            self.code = code
            self.status = status
            self.retryable = retryable
            self.retryAfter = retryAfter
            self.requestId = requestId
            self.message = message
        }

        /// The credentials are missing or refused: time to log out or refresh the token.
        public var isUnauthenticated: Bool { code == "UNAUTHENTICATED" }

        public var description: String {
            "\(code) (\(status)): \(message)" + (requestId.map { " [request \($0)]" } ?? "")
        }

        /// Statuses the gateway marks retryable: 429, 502, 503, 504.
        static let retryableStatuses: Set<Int> = [429, 502, 503, 504]

        // MARK: - From responses

        /// A non-2xx answer: the envelope when the body is one, else what the status says.
        init(status: Int, headers: HTTPURLResponse, body: Foundation.Data) {
            let entry = (try? JSONCoding.decoder().decode(ErrorEnvelope.self, from: body))?.errors?.first
            self.init(entry: entry, status: status, headers: headers,
                      fallbackCode: status == 401 ? "UNAUTHENTICATED" : "HTTP_\(status)")
        }

        /// A 2xx answer with errors and no data.
        init(graphQLErrors: [ErrorEnvelope.Entry], status: Int, headers: HTTPURLResponse) {
            self.init(entry: graphQLErrors.first, status: status, headers: headers, fallbackCode: "GRAPHQL_ERROR")
        }

        private init(entry: ErrorEnvelope.Entry?, status: Int, headers: HTTPURLResponse, fallbackCode: String) {
            let extensions = entry?.extensions
            let headerRetryAfter = headers.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) }
            self.init(code: extensions?.code ?? fallbackCode,
                      status: extensions?.status ?? status,
                      retryable: extensions?.retryable ?? GatehouseError.retryableStatuses.contains(status),
                      retryAfter: extensions?.retryAfter.map { Int($0.rounded(.up)) } ?? headerRetryAfter,
                      requestId: extensions?.requestId ?? headers.value(forHTTPHeaderField: "X-Request-Id"),
                      message: entry?.message ?? HTTPURLResponse.localizedString(forStatusCode: status))
        }

        static func network(_ error: (any Error)?) -> GatehouseError {
            GatehouseError(code: "NETWORK_ERROR", status: 0, retryable: true,
                           message: error.map { "\($0)" } ?? "no HTTP response")
        }

        static func badURL(_ path: String) -> GatehouseError {
            GatehouseError(code: "BAD_URL", status: 0, retryable: false, message: "cannot build a URL for \(path)")
        }
    }
    """#)
}
