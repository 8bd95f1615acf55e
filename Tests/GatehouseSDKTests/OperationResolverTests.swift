import Testing
@testable import GatehouseSDK

// MARK: - Shapes

/// An operation document against the Star Wars schema, and the shape its result takes.
struct ShapeCase: CustomTestStringConvertible, Sendable {
    var what: String
    var document: String
    var shape: String
    var testDescription: String { what }
}

let shapeCases: [ShapeCase] = [
    .init(what: "nullability and lists of non-null",
          document: "query Q { hero { name appearsIn friends { name } } }",
          shape: "hero:Character {name:String! appearsIn:[Episode!]! friends:[Character] {name:String!}}"),
    .init(what: "aliases are response keys",
          document: "query Q { a: hero(episode: EMPIRE) { name } b: hero(episode: JEDI) { title: name } }",
          shape: "a=hero:Character {name:String!} b=hero:Character {title=name:String!}"),
    .init(what: "the same field twice merges its selections",
          document: "query Q { hero { name } hero { id } }",
          shape: "hero:Character {name:String! id:ID!}"),
    .init(what: "inline fragments on an interface narrow it",
          document: "query Q { hero { __typename name ... on Human { homePlanet } ... on Droid { primaryFunction } } }",
          shape: "hero:Character {__typename:String! name:String! on Human[Human] {homePlanet:String} on Droid[Droid] {primaryFunction:String}}"),
    .init(what: "a fragment on the type itself or a supertype merges",
          document: "query Q { human(id: 1) { ... on Human { name } ...N } } fragment N on Node { id }",
          shape: "human:Human {name:String! id:ID!}"),
    .init(what: "an inline fragment without a type condition merges",
          document: "query Q { hero { ... { name } } }",
          shape: "hero:Character {name:String!}"),
    .init(what: "named fragments, nested",
          document: """
          query Q { hero { ...C } }
          fragment C on Character { __typename id ...H }
          fragment H on Human { homePlanet }
          """,
          shape: "hero:Character {__typename:String! id:ID! on Human[Human] {homePlanet:String}}"),
    .init(what: "unions through interface and object fragments",
          document: "query Q($t: String!) { search(text: $t) { __typename ... on Character { name } ... on Starship { length } } }",
          shape: "search:[SearchResult!]! {__typename:String! on Character[Droid,Human] {name:String!} on Starship[Starship] {length:Float}}"),
    .init(what: "two fragments on one type become one part",
          document: "query Q { hero { __typename ... on Human { name } ... on Human { homePlanet } } }",
          shape: "hero:Character {__typename:String! on Human[Human] {name:String! homePlanet:String}}"),
]

@Test(arguments: shapeCases)
func resultShapes(_ row: ShapeCase) throws {
    let operations = try resolve(row.document, against: starWarsSDL).get()
    #expect(operations.count == 1)
    #expect(operations.first.map { summary($0.selection) } == row.shape)
}

@Test func variablesKeepTheirTypesAndDefaults() throws {
    let document = "mutation M($e: Episode = JEDI, $r: ReviewInput!) { createReview(episode: $e, review: $r) { stars } }"
    let operation = try #require(try resolve(document, against: starWarsSDL).get().first)
    #expect(operation.kind == .mutation)
    #expect(operation.variables.map { "\($0.name):\($0.type) optional=\($0.isOptional)" }
            == ["e:Episode optional=true", "r:ReviewInput! optional=false"])
}

// MARK: - Errors

/// A document that does not resolve, and every `file:line:column: message` it gets.
struct ResolveErrorCase: CustomTestStringConvertible, Sendable {
    var document: String
    var issues: [String]
    var testDescription: String { String(document.prefix(80)) }
}

let resolveErrorCases: [ResolveErrorCase] = [
    .init(document: "query Q { villain { name } }", issues: ["ops.graphql:1:11: type \"Query\" has no field \"villain\""]),
    .init(document: "query Q {\n  hero {\n    name\n    age\n  }\n}",
          issues: ["ops.graphql:4:5: type \"Character\" has no field \"age\""]),
    .init(document: "query Q { hero }",
          issues: ["ops.graphql:1:11: field \"hero\" of type \"Character\" needs a selection of subfields"]),
    .init(document: "query Q { hero { name { x } } }",
          issues: ["ops.graphql:1:18: field \"name\" of type \"String!\" has no subfields to select"]),
    .init(document: "query Q { hero(era: JEDI) { name } }",
          issues: ["ops.graphql:1:16: field \"Query.hero\" has no argument \"era\""]),
    .init(document: "query Q { human { name } }",
          issues: ["ops.graphql:1:11: field \"Query.human\" needs its argument \"id: ID!\""]),
    .init(document: "query Q { human(id: $id) { name } }",
          issues: ["ops.graphql:1:21: variable \"$id\" is not defined by the operation"]),
    .init(document: "query Q($h: Human) { hero { name } }",
          issues: ["ops.graphql:1:9: variable \"$h\" must have an input type, but \"Human\" is an output type"]),
    .init(document: "query Q($x: Nope) { hero { name } }",
          issues: ["ops.graphql:1:9: unknown type \"Nope\" of variable \"$x\""]),
    .init(document: "query Q { hero { name ... on Human { homePlanet } } }",
          issues: ["ops.graphql:1:23: select __typename next to the fragment on \"Human\": the client needs it to tell which Character arrived"]),
    .init(document: "query Q { search(text: \"x\") { name } }",
          issues: ["ops.graphql:1:31: cannot select field \"name\" on union \"SearchResult\"; use a fragment on one of its members"]),
    .init(document: "query Q { human(id: 1) { ... on Droid { name } } }",
          issues: ["ops.graphql:1:26: a fragment on \"Droid\" can never apply to \"Human\""]),
    .init(document: "query Q { hero { ... on Planet { name } } }",
          issues: ["ops.graphql:1:18: unknown type \"Planet\" in a fragment"]),
    .init(document: "query Q { hero { ...Missing } }", issues: ["ops.graphql:1:18: unknown fragment \"Missing\""]),
    .init(document: "query Q { hero { name: id name } }",
          issues: ["ops.graphql:1:27: response key \"name\" names both \"id\" and \"name\"; use an alias for one of them"]),
    .init(document: "subscription S { hero { name } }", issues: ["ops.graphql:1:1: the schema has no subscription type"]),
    .init(document: "query Q { hero { name }", issues: ["ops.graphql:1:24: Expected Name, found <EOF>"]),
    .init(document: "query A { a1: villain { x } }\nquery B { hero { b } }",
          issues: ["ops.graphql:1:11: type \"Query\" has no field \"villain\"",
                   "ops.graphql:2:18: type \"Character\" has no field \"b\""]),
]

@Test(arguments: resolveErrorCases)
func resolveErrorsHavePositions(_ row: ResolveErrorCase) {
    switch resolve(row.document, against: starWarsSDL) {
    case .success:
        Issue.record("expected \(row.issues)")
    case .failure(let issues):
        #expect(issues.issues.map(\.description) == row.issues)
    }
}
