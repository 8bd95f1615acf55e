import Foundation
import Synchronization

/// A movie of the demo backend's catalogue.
struct DemoMovie: Sendable {
    var key: String
    var title: String
    var genre: String
    var year: Int?
    var rating: Double?

    /// The GraphQL object the backend answers with; absent optional fields are `null`.
    var jsonObject: [String: Any] {
        ["key": key, "title": title, "genre": genre,
         "year": year.map { $0 as Any } ?? NSNull(),
         "rating": rating.map { $0 as Any } ?? NSNull()]
    }
}

/// The demo backend's movies: seeded at start, grown by `createMovie`, shared by all connection
/// threads behind a mutex, and gone when the process exits.
final class DemoMovieStore: Sendable {
    private struct State {
        var movies: [DemoMovie]
        var nextKey: Int
    }

    private let state: Mutex<State>

    init(seed: [DemoMovie] = DemoMovieStore.seedMovies) {
        state = Mutex(State(movies: seed, nextKey: seed.count + 1))
    }

    // MARK: - Queries

    /// Movies of `genre` (compared case-insensitively), in catalogue order, at most `limit`.
    func movies(genre: String, limit: Int) -> [DemoMovie] {
        let wanted = genre.lowercased()
        return state.withLock { state in
            Array(state.movies.filter { $0.genre.lowercased() == wanted }.prefix(max(0, limit)))
        }
    }

    func movie(key: String) -> DemoMovie? {
        state.withLock { state in state.movies.first { $0.key == key } }
    }

    // MARK: - Mutations

    /// Adds a movie under a fresh key (`m<n>`) and returns it.
    func create(title: String, genre: String, year: Int?, rating: Double?) -> DemoMovie {
        state.withLock { state in
            let movie = DemoMovie(key: "m\(state.nextKey)", title: title, genre: genre, year: year, rating: rating)
            state.nextKey += 1
            state.movies.append(movie)
            return movie
        }
    }

    // MARK: - Seed

    static let seedMovies: [DemoMovie] = [
        DemoMovie(key: "m1", title: "The Shawshank Redemption", genre: "drama", year: 1994, rating: 9.3),
        DemoMovie(key: "m2", title: "Forrest Gump", genre: "drama", year: 1994, rating: 8.8),
        DemoMovie(key: "m3", title: "Whiplash", genre: "drama", year: 2014, rating: 8.5),
        DemoMovie(key: "m4", title: "Groundhog Day", genre: "comedy", year: 1993, rating: 8.0),
        DemoMovie(key: "m5", title: "The Grand Budapest Hotel", genre: "comedy", year: 2014, rating: 8.1),
        DemoMovie(key: "m6", title: "Arrival", genre: "scifi", year: 2016, rating: 7.9),
        DemoMovie(key: "m7", title: "Blade Runner 2049", genre: "scifi", year: 2017, rating: 8.0),
    ]
}
