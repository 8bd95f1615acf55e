/// The demo backend's movies: seeded at start, grown by `createMovie`, and gone when the process
/// exits. Touched only on the backend's event-loop thread.
final class DemoMovieStore {
    private var movies: [DemoMovie]
    private var nextKey: Int

    init(seed: [DemoMovie] = DemoMovieStore.seedMovies) {
        movies = seed
        nextKey = seed.count + 1
    }

    // MARK: - Queries

    /// Movies of `genre` (compared case-insensitively), in catalogue order, at most `limit`.
    func movies(genre: String, limit: Int) -> [DemoMovie] {
        let wanted = genre.lowercased()
        return Array(movies.filter { $0.genre.lowercased() == wanted }.prefix(max(0, limit)))
    }

    func movie(key: String) -> DemoMovie? {
        movies.first { $0.key == key }
    }

    /// Movies whose title contains `text`, compared case-insensitively.
    func movies(titleContaining text: String) -> [DemoMovie] {
        let wanted = text.lowercased()
        return movies.filter { $0.title.lowercased().contains(text: wanted) }
    }

    // MARK: - Mutations

    /// Adds a movie under a fresh key (`m<n>`) and returns it.
    func create(title: String, genre: String, year: Int?, rating: Double?, aspectRatio: String?) -> DemoMovie {
        let movie = DemoMovie(key: "m\(nextKey)", title: title, genre: genre, year: year, rating: rating,
                              aspectRatio: aspectRatio)
        nextKey += 1
        movies.append(movie)
        return movie
    }

    // MARK: - Seed

    static let seedMovies: [DemoMovie] = [
        DemoMovie(key: "m1", title: "The Shawshank Redemption", genre: "drama", year: 1994, rating: 9.3,
                  aspectRatio: "WIDESCREEN"),
        DemoMovie(key: "m2", title: "Forrest Gump", genre: "drama", year: 1994, rating: 8.8, aspectRatio: "WIDESCREEN"),
        DemoMovie(key: "m3", title: "Whiplash", genre: "drama", year: 2014, rating: 8.5, aspectRatio: "ULTRAWIDE"),
        DemoMovie(key: "m4", title: "Groundhog Day", genre: "comedy", year: 1993, rating: 8.0, aspectRatio: "STANDARD"),
        DemoMovie(key: "m5", title: "The Grand Budapest Hotel", genre: "comedy", year: 2014, rating: 8.1,
                  aspectRatio: "STANDARD"),
        DemoMovie(key: "m6", title: "Arrival", genre: "scifi", year: 2016, rating: 7.9, aspectRatio: "WIDESCREEN"),
        // Not a value the schema lists: the case a client's unknown-enum handling is tried on.
        DemoMovie(key: "m7", title: "Blade Runner 2049", genre: "scifi", year: 2017, rating: 8.0,
                  aspectRatio: "IMAX_EXPANDED"),
    ]
}
