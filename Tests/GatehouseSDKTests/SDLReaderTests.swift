import Testing
import GatehouseGraphQL
@testable import GatehouseSDK

// MARK: - Schemas that read

/// SDL that reads, and what the schema then says: `Type.field: type` for the named fields.
struct SchemaCase: CustomTestStringConvertible, Sendable {
    var sdl: String
    var facts: [String]
    var testDescription: String { String(sdl.prefix(80)) }
}

private func fact(_ schema: GraphQLSchema, _ path: String) -> String {
    let parts = path.split(separator: ".").map(String.init)
    guard let type = schema[parts[0]] else { return "\(path): missing" }
    if parts.count == 1 {
        switch type.kind {
        case .scalar: return "\(path): scalar"
        case .object: return "\(path): object implements \(type.interfaces.joined(separator: "&"))"
        case .interface: return "\(path): interface implements \(type.interfaces.joined(separator: "&"))"
        case .union(let members): return "\(path): union \(members.joined(separator: "|"))"
        case .enumeration(let values): return "\(path): enum \(values.joined(separator: ","))"
        case .inputObject: return "\(path): input \(type.fields.map(\.name).joined(separator: ","))"
        }
    }
    guard let field = type.field(named: parts[1]) else { return "\(path): missing" }
    let arguments = field.arguments.map { "\($0.name):\($0.type)\($0.hasDefault ? "=" : "")" }
    return "\(path)(\(arguments.joined(separator: ","))): \(field.type)"
}

let schemaCases: [SchemaCase] = [
    .init(sdl: "type Query { a: Int }", facts: ["Query.a(): Int"]),
    .init(sdl: "type Query { a: [Int!]! b(x: ID!, y: [String] = [\"z\"]): String }",
          facts: ["Query.a(): [Int!]!", "Query.b(x:ID!,y:[String]=): String"]),
    .init(sdl: "\"\"\"Block\ndescription\"\"\" type Query { \"field\" a(\"arg\" x: Int): Int }",
          facts: ["Query.a(x:Int): Int"]),
    .init(sdl: "interface A { id: ID! } interface B implements A { id: ID! } type T implements & A & B { id: ID! } type Query { t: T }",
          facts: ["T: object implements A&B", "B: interface implements A"]),
    .init(sdl: "type X { a: Int } type Y { b: Int } union U = | X | Y type Query { u: U }", facts: ["U: union X|Y"]),
    .init(sdl: "enum E @flag { A B @deprecated(reason: \"old\") C } type Query { e: E }", facts: ["E: enum A,B,C"]),
    .init(sdl: "input I { a: Int! = 1 b: [I!] } type Query { f(i: I): Int }", facts: ["I: input a,b", "Query.f(i:I): Int"]),
    .init(sdl: "scalar Date @specifiedBy(url: \"x\") type Query { d: Date }", facts: ["Date: scalar", "Query.d(): Date"]),
    .init(sdl: "type Query { a: Int } extend type Query { b: String } extend enum E { B } enum E { A }",
          facts: ["Query.b(): String", "E: enum A,B"]),
    .init(sdl: "directive @cost(w: Int = 1) repeatable on FIELD_DEFINITION | OBJECT type Query { a: Int @cost(w: 2) }",
          facts: ["Query.a(): Int"]),
    .init(sdl: "schema @x { query: Root } type Root { a: Int } # a comment\n", facts: ["Root.a(): Int"]),
]

@Test(arguments: schemaCases)
func schemaReads(_ row: SchemaCase) {
    guard let schema = readSchema(row.sdl) else { return }
    for expected in row.facts {
        let path = String(expected.prefix { $0 != ":" && $0 != "(" })
        #expect(fact(schema, path) == expected)
    }
}

@Test func rootTypesDefaultToTheirConventionalNames() {
    guard let schema = readSchema("type Query { a: Int } type Mutation { b: Int }") else { return }
    #expect(schema.queryType == "Query")
    #expect(schema.mutationType == "Mutation")
    #expect(schema.subscriptionType == nil)
}

@Test func interfacesKnowTheirObjectTypesTransitively() {
    guard let schema = readSchema(starWarsSDL) else { return }
    #expect(schema.possibleTypes(of: "Node") == ["Human", "Droid", "Starship"])
    #expect(schema.possibleTypes(of: "Character") == ["Human", "Droid"])
    #expect(schema.possibleTypes(of: "SearchResult") == ["Human", "Droid", "Starship"])
}

// MARK: - Schemas that do not

/// SDL that does not read, and every `file:line:column: message` it gets.
struct SchemaErrorCase: CustomTestStringConvertible, Sendable {
    var sdl: String
    var issues: [String]
    var testDescription: String { String(sdl.prefix(80)) }
}

let schemaErrorCases: [SchemaErrorCase] = [
    .init(sdl: "type Query { a: Int", issues: ["schema.graphql:1:20: Expected Name, found <EOF>"]),
    .init(sdl: "type Query {\n  a Int\n}", issues: ["schema.graphql:2:5: Expected \":\", found Name \"Int\""]),
    .init(sdl: "type Query { a: [Int }", issues: ["schema.graphql:1:22: Expected \"]\", found \"}\""]),
    .init(sdl: "query Q { a }", issues: ["schema.graphql:1:1: Unexpected query: a schema holds type definitions, not operations"]),
    .init(sdl: "enum E { true }", issues: ["schema.graphql:1:10: Enum value cannot be true"]),
    .init(sdl: "type Query { a: Movie }", issues: ["schema.graphql:1:14: unknown type \"Movie\" of field \"Query.a\""]),
    .init(sdl: "type Query { a: Int }\ntype Query { b: Int }",
          issues: ["schema.graphql:2:1: duplicate type \"Query\" (first defined at schema.graphql:1:1)"]),
    .init(sdl: "type Query { a: Int a: String }", issues: ["schema.graphql:1:21: duplicate field \"Query.a\""]),
    .init(sdl: "type Int { a: Int }", issues: ["schema.graphql:1:1: duplicate type \"Int\" (a built-in scalar)"]),
    .init(sdl: "input I { a: Int } type Query { f: I }",
          issues: ["schema.graphql:1:33: field \"Query.f\" must have an output type, but \"I\" is an input type"]),
    .init(sdl: "type T { a: Int } type Query { f(t: T): Int }",
          issues: ["schema.graphql:1:34: argument \"f(t:)\" must have an input type, but \"T\" is an output type"]),
    .init(sdl: "type T implements Query { a: Int } type Query { t: T }",
          issues: ["schema.graphql:1:19: interface \"Query\" is not an interface"]),
    .init(sdl: "type T implements Q { a: Int } type Query { t: T }",
          issues: ["schema.graphql:1:19: unknown interface \"Q\""]),
    .init(sdl: "union U = A | Int type A { a: Int }",
          issues: ["schema.graphql:1:15: union member \"Int\" is not an object type"]),
    .init(sdl: "extend type Missing { a: Int }", issues: ["schema.graphql:1:1: cannot extend unknown type \"Missing\""]),
    .init(sdl: "schema { query: Nope }", issues: ["schema.graphql:1:17: unknown query root type \"Nope\""]),
    .init(sdl: "type Query {\n  a: A\n  b: B\n}",
          issues: ["schema.graphql:2:3: unknown type \"A\" of field \"Query.a\"",
                   "schema.graphql:3:3: unknown type \"B\" of field \"Query.b\""]),
]

@Test(arguments: schemaErrorCases)
func schemaErrorsHavePositions(_ row: SchemaErrorCase) {
    switch SDLReader.read(row.sdl, file: "schema.graphql") {
    case .success:
        Issue.record("expected \(row.issues)")
    case .failure(let issues):
        #expect(issues.issues.map(\.description) == row.issues)
    }
}
