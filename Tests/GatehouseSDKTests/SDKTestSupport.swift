import Testing
import GatehouseGraphQL
@testable import GatehouseSDK

/// The schema of `sdl`, or nil (with the issues recorded) when it does not read.
func readSchema(_ sdl: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> GraphQLSchema? {
    switch SDLReader.read(sdl, file: "schema.graphql") {
    case .success(let schema):
        return schema
    case .failure(let issues):
        Issue.record("schema did not read: \(issues)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The operations of `document` resolved against `sdl`; each issue as `file:line:column: message`.
func resolve(_ document: String, against sdl: String) -> Result<[ResolvedOperation], SDKIssues> {
    guard case .success(let schema) = SDLReader.read(sdl, file: "schema.graphql") else {
        return .failure(SDKIssues([]))
    }
    return OperationResolver.resolve(files: [("ops.graphql", document)], schema: schema)
}

/// A selection set as one line: `key:Type` per field, nested sets in braces, narrowing parts as
/// `on Type[possible types] {…}`; aliases as `alias=field:Type`.
func summary(_ selection: ResolvedSelectionSet) -> String {
    var parts: [String] = []
    for field in selection.fields {
        var text = field.responseKey == field.fieldName ? field.fieldName : "\(field.responseKey)=\(field.fieldName)"
        text += ":\(field.type)"
        if let nested = field.selection { text += " {\(summary(nested))}" }
        parts.append(text)
    }
    for condition in selection.conditions {
        parts.append("on \(condition.typeName)[\(condition.possibleTypes.joined(separator: ","))] {\(summary(condition.selection))}")
    }
    return parts.joined(separator: " ")
}

/// The Star Wars fixture: a schema with interfaces, a union, inputs and custom scalars.
let starWarsSDL = """
schema { query: Query mutation: Mutation }
scalar Date
enum Episode { NEWHOPE EMPIRE JEDI }
interface Node { id: ID! }
interface Character implements Node { id: ID! name: String! friends: [Character] appearsIn: [Episode!]! }
type Human implements Character & Node { id: ID! name: String! friends: [Character] appearsIn: [Episode!]! homePlanet: String }
type Droid implements Character & Node { id: ID! name: String! friends: [Character] appearsIn: [Episode!]! primaryFunction: String }
type Starship implements Node { id: ID! name: String! length: Float }
union SearchResult = Human | Droid | Starship
input ReviewInput { stars: Int! commentary: String }
type Review { stars: Int! createdAt: Date! }
type Query {
  hero(episode: Episode): Character
  human(id: ID!): Human
  search(text: String!): [SearchResult!]!
}
type Mutation { createReview(episode: Episode, review: ReviewInput!): Review }
"""
