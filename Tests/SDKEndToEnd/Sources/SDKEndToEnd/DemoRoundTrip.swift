import Foundation
import GatehouseDemoAPI

/// The token the client logs in with, shared with its token provider.
actor TokenStore {
    var token: String?

    func set(_ token: String?) { self.token = token }
}

/// Every demo operation through the generated client against `gatehouse demo`: public ones
/// without a token, the others with the token `createUserToken` returned; a missing token is
/// `isUnauthenticated`; fetch policies reach the gateway's cache; a 429 carries `retryAfter`.
struct DemoRoundTrip {
    let port: Int
    let rateLimitedPort: Int?
    let checks: Checks

    func run() async {
        let tokens = TokenStore()
        let client = GatehouseClient(connector: .local(port: port)) { await tokens.token }

        // The public door needs no token.
        await checks.run("appsetting through the public door") {
            try await !client.appsetting().appsetting.cdnUrl.isEmpty
        }
        // The authenticated door without one: the envelope says so.
        await checks.expectError("me without a token is isUnauthenticated", as: GatehouseError.self, {
            _ = try await client.me()
        }, accept: { $0.isUnauthenticated && $0.status == 401 && $0.requestId != nil })

        await checks.run("createUserToken through the public door") {
            let token = try await client.createUserToken(email: "alice@example.com", password: "demo").createUserToken.token
            await tokens.set(token)
            return !token.isEmpty
        }
        await checks.run("me through the authenticated door") {
            try await client.me().me.id == "alice@example.com"
        }
        await checks.run("listMoviesByGenre over GET /ops with typed parameters") {
            let movies = try await client.listMoviesByGenre(genre: "drama", limit: 2).listMoviesByGenre
            return !movies.isEmpty && movies.count <= 2
        }
        await checks.run("getMovieByKey by ID, a listed enum value") {
            let movie = try await client.getMovieByKey(key: "m1").getMovieByKey
            return movie?.key == "m1" && movie?.aspectRatio == .WIDESCREEN
        }
        await checks.run("an enum value the schema does not list decodes to _UNKNOWN") {
            try await client.getMovieByKey(key: "m7").getMovieByKey?.aspectRatio == ._UNKNOWN("IMAX_EXPANDED")
        }
        await checks.run("listMoviesByGenre keeps an unlisted value among listed ones") {
            let ratios = try await client.listMoviesByGenre(genre: "scifi").listMoviesByGenre.map(\.aspectRatio)
            return ratios.contains(._UNKNOWN("IMAX_EXPANDED")) && ratios.contains(.WIDESCREEN)
        }
        await checks.run("createMovie by POST with variables") {
            let created = try await client.createMovie(title: "Gatehouse", genre: "drama", year: 2026, rating: 4.5)
            return created.createMovie.title == "Gatehouse" && created.createMovie.year == 2026
                && !created.createMovie.key.isEmpty
        }
        await checks.run("adventuresAll over GET /ops") {
            try await !client.adventuresAll().adventureList.items.isEmpty
        }
        await checks.run("adventureBySlug over GET /ops") {
            try await client.adventureBySlug(slug: "bali-surf-camp").adventureList.items.first?.slug == "bali-surf-camp"
        }
        await checks.run("serverOnly is a plain call to the backend") {
            try await !client.appsetting(fetchPolicy: .serverOnly).appsetting.cdnUrl.isEmpty
        }
        // The demo's /ops/* route caches: a cache-only call before anything is stored misses,
        // one after a call that stored the answer is served from the gateway's cache.
        await checks.expectError("cacheOnly before anything is cached is CACHE_MISS", as: GatehouseError.self, {
            _ = try await client.getMovieByKey(key: "m2", fetchPolicy: .cacheOnly)
        }, accept: { $0.code == "CACHE_MISS" && $0.status == 504 && !$0.retryable })
        await checks.run("cacheOnly after a preferCache call is answered from the cache") {
            let fetched = try await client.getMovieByKey(key: "m2").getMovieByKey
            let cached = try await client.getMovieByKey(key: "m2", fetchPolicy: .cacheOnly).getMovieByKey
            return fetched != nil && cached == fetched
        }
        await rateLimited()
    }

    /// A gateway whose upstream answers 429 with Retry-After: the error carries it.
    private func rateLimited() async {
        guard let rateLimitedPort else {
            checks.skip("429 carries retryAfter", reason: "no rate-limited gateway given (--rate-limited-port)")
            return
        }
        let client = GatehouseClient(connector: .local(port: rateLimitedPort)) { "any-token" }
        await checks.expectError("429 carries retryAfter", as: GatehouseError.self, {
            _ = try await client.listMoviesByGenre(genre: "drama")
        }, accept: { $0.code == "RATE_LIMITED" && $0.status == 429 && $0.retryAfter == 7 && $0.retryable })
    }
}
