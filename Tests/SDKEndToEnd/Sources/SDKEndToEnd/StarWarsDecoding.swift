import Foundation
import StarWarsAPI

/// The Star Wars fixture's client has no server to talk to; its result types must decode what
/// such a server sends: narrowing fragments by `__typename`, unknown enum values, nulls in lists.
enum StarWarsDecoding {
    static func run(_ checks: Checks) {
        let hero = #"""
        {"hero":{"__typename":"Human","id":"1000","name":"Luke Skywalker","appearsIn":["NEWHOPE","PHANTOM"],
         "friends":[{"name":"Han Solo"},null],"homePlanet":"Tatooine","height":5.6,
         "starships":[{"name":"X-wing","length":12.5}]}}
        """#
        do {
            let data = try JSONDecoder().decode(HeroForEpisodeQuery.Data.self, from: Foundation.Data(hero.utf8))
            checks.expect(data.hero?.asHuman?.homePlanet == "Tatooine", "star wars: a Human decodes its own fields")
            checks.expect(data.hero?.asDroid == nil, "star wars: a Human is not a Droid")
            checks.expect(data.hero?.appearsIn == [.NEWHOPE, ._UNKNOWN("PHANTOM")],
                          "star wars: an unlisted enum value decodes to _UNKNOWN")
            checks.expect(data.hero?.friends?.count == 2 && data.hero?.friends?[1] == nil,
                          "star wars: null list elements stay nil")
        } catch {
            checks.expect(false, "star wars: hero decodes (\(error))")
        }
        let search = #"{"search":[{"__typename":"Droid","id":"2001","name":"R2-D2"},{"__typename":"Starship","id":"3000","name":"Millennium Falcon","coordinates":[[1.5,2]]}]}"#
        do {
            let data = try JSONDecoder().decode(SearchQuery.Data.self, from: Foundation.Data(search.utf8))
            checks.expect(data.search.first?.asCharacter?.name == "R2-D2", "star wars: an interface fragment applies to a Droid")
            checks.expect(data.search.last?.asStarship?.coordinates == [[1.5, 2]], "star wars: nested lists decode")
        } catch {
            checks.expect(false, "star wars: search decodes (\(error))")
        }
        var filter = ReviewFilter(minStars: 3, _not: ReviewFilter(episodes: [.JEDI]))
        filter.commentary = CommentaryFilter(contains: "droids", review: ReviewFilter(minStars: 1))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let filterJSON = (try? encoder.encode(filter)).map { String(decoding: $0, as: UTF8.self) }
        checks.expect(filterJSON == #"{"_not":{"episodes":["JEDI"]},"commentary":{"contains":"droids","review":{"minStars":1}},"minStars":3}"#,
                      "star wars: input objects that hold themselves encode as plain JSON (\(filterJSON ?? "nil"))")
        let episode = Episode(rawValue: "FORCE_AWAKENS")
        let encoded = try? JSONEncoder().encode([episode])
        checks.expect(encoded.map { String(decoding: $0, as: UTF8.self) } == #"["FORCE_AWAKENS"]"#,
                      "star wars: an _UNKNOWN enum value encodes as it came")
    }
}
