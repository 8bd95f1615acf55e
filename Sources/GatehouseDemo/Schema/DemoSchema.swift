import GatehouseGraphQL

/// The types the demo backend answers: the same ones, field for field, as `config/schema.graphql`
/// (a test renders these as SDL and compares), so a client generated from that file matches what
/// the backend returns. Root fields are resolved by `DemoRootResolvers`; every other object comes
/// from the data as a `DemoObject` carrying exactly its type's fields.
enum DemoSchema {
    static let queryType = "Query"
    static let mutationType = "Mutation"

    /// In the order `config/schema.graphql` lists them.
    static let types: [DemoTypeDefinition] = [
        .interface(name: "Node", fields: [DemoFieldDefinition("id", .required("ID"))]),
        .object(DemoObjectType(name: queryType, fields: [
            DemoFieldDefinition("appsetting", .required("AppSetting")),
            DemoFieldDefinition("me", .required("User")),
            DemoFieldDefinition("viewer", .required("User")),
            DemoFieldDefinition("listMoviesByGenre", [
                DemoArgumentDefinition("genre", .required("String")),
                DemoArgumentDefinition("limit", .named("Int"), default: .number("10")),
            ], .requiredList("Movie")),
            DemoFieldDefinition("getMovieByKey", [DemoArgumentDefinition("key", .required("ID"))], .named("Movie")),
            DemoFieldDefinition("search", [DemoArgumentDefinition("text", .required("String"))],
                                .requiredList("SearchResult")),
            DemoFieldDefinition("adventureList", [DemoArgumentDefinition("filter", .named("AdventureModelFilter"))],
                                .required("AdventureModelResults")),
        ])),
        .object(DemoObjectType(name: mutationType, fields: [
            DemoFieldDefinition("createUserToken", [
                DemoArgumentDefinition("email", .required("String")),
                DemoArgumentDefinition("password", .required("String")),
            ], .required("UserToken")),
            DemoFieldDefinition("createMovie", [
                DemoArgumentDefinition("title", .required("String")),
                DemoArgumentDefinition("genre", .required("String")),
                DemoArgumentDefinition("year", .named("Int")),
                DemoArgumentDefinition("rating", .named("Float")),
                DemoArgumentDefinition("aspectRatio", .named("AspectRatio")),
            ], .required("Movie")),
        ])),
        .object(DemoObjectType(name: "AppSetting", fields: [
            DemoFieldDefinition("cdnUrl", .required("String")),
            DemoFieldDefinition("minVersion", .required("String")),
        ])),
        .object(DemoObjectType(name: "User", interfaces: ["Node"], fields: [
            DemoFieldDefinition("id", .required("ID")),
        ])),
        .object(DemoObjectType(name: "UserToken", fields: [
            DemoFieldDefinition("token", .required("String")),
        ])),
        .object(DemoObjectType(name: "Movie", interfaces: ["Node"], fields: [
            DemoFieldDefinition("id", .required("ID")),
            DemoFieldDefinition("key", .required("ID")),
            DemoFieldDefinition("title", .required("String")),
            DemoFieldDefinition("genre", .required("String")),
            DemoFieldDefinition("year", .named("Int")),
            DemoFieldDefinition("rating", .named("Float")),
            DemoFieldDefinition("aspectRatio", .named("AspectRatio")),
        ])),
        .enumeration(name: "AspectRatio", values: ["STANDARD", "WIDESCREEN", "ULTRAWIDE"]),
        .object(DemoObjectType(name: "AdventureModel", fields: [
            DemoFieldDefinition("title", .required("String")),
            DemoFieldDefinition("slug", .required("String")),
            DemoFieldDefinition("price", .required("Int")),
            DemoFieldDefinition("tripLength", .required("String")),
        ])),
        .object(DemoObjectType(name: "AdventureModelResults", fields: [
            DemoFieldDefinition("items", .requiredList("AdventureModel")),
        ])),
        .union(name: "SearchResult", members: ["Movie", "AdventureModel"]),
        .input(name: "AdventureModelFilter", fields: [DemoArgumentDefinition("slug", .named("StringFilter"))]),
        .input(name: "StringFilter", fields: [
            DemoArgumentDefinition("_expressions", .list(.nonNull(.named("StringFilterExpression")))),
        ]),
        .input(name: "StringFilterExpression", fields: [DemoArgumentDefinition("value", .required("String"))]),
    ]

    /// The scalars GraphQL defines; the demo adds none.
    static let builtInScalars: Set<String> = ["ID", "String", "Int", "Float", "Boolean"]

    private static let typesByName: [String: DemoTypeDefinition] = Dictionary(
        uniqueKeysWithValues: (types + builtInScalars.map { .scalar(name: $0) }).map { ($0.name, $0) })

    static func type(named name: String) -> DemoTypeDefinition? {
        typesByName[name]
    }

    static func objectType(named name: String) -> DemoObjectType? {
        if case .object(let type) = typesByName[name] { return type }
        return nil
    }

    /// Whether a fragment on `condition` applies to an object of type `typeName`: the same
    /// type, an interface it implements, or a union it belongs to.
    static func fragment(on condition: String, appliesTo typeName: String) -> Bool {
        if condition == typeName { return true }
        switch typesByName[condition] {
        case .interface:
            return objectType(named: typeName)?.interfaces.contains(condition) ?? false
        case .union(_, let members):
            return members.contains(typeName)
        default:
            return false
        }
    }
}
