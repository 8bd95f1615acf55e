/// A movie of the demo backend's catalogue.
struct DemoMovie: Sendable, Equatable {
    var key: String
    var title: String
    var genre: String
    var year: Int?
    var rating: Double?
    /// An `AspectRatio` enum value, as the backend stores it; `IMAX_EXPANDED` on one seeded movie
    /// is deliberately not in the schema's list, so a generated client's unknown-value case can
    /// be tried against the demo.
    var aspectRatio: String?

    /// The `Movie` object; `id` is the key, so clients that cache by `Node.id` can.
    var object: DemoObject {
        DemoObject("Movie", [
            "id": .string(key),
            "key": .string(key),
            "title": .string(title),
            "genre": .string(genre),
            "year": .optional(year, DemoValue.int),
            "rating": .optional(rating, DemoValue.float),
            "aspectRatio": .optional(aspectRatio, DemoValue.string),
        ])
    }
}
