import GatehouseGraphQL

/// The schema as SDL, in the layout of `config/schema.graphql`: one definition per block, one
/// field, value or member per line. The file adds comments; a test checks that it says nothing else.
extension DemoSchema {
    static var sdl: String {
        var blocks = ["schema {\n  query: \(queryType)\n  mutation: \(mutationType)\n}"]
        blocks += types.map(sdl(for:))
        return blocks.joined(separator: "\n\n") + "\n"
    }

    private static func sdl(for type: DemoTypeDefinition) -> String {
        switch type {
        case .scalar(let name):
            return "scalar \(name)"
        case .object(let object):
            let implements = object.interfaces.isEmpty ? "" : " implements " + object.interfaces.joined(separator: " & ")
            return block("type \(object.name)\(implements)", object.fields.map(sdl(for:)))
        case .interface(let name, let fields):
            return block("interface \(name)", fields.map(sdl(for:)))
        case .union(let name, let members):
            return "union \(name) = " + members.joined(separator: " | ")
        case .enumeration(let name, let values):
            return block("enum \(name)", values)
        case .input(let name, let fields):
            return block("input \(name)", fields.map(sdl(for:)))
        }
    }

    private static func block(_ header: String, _ lines: [String]) -> String {
        "\(header) {\n" + lines.map { "  \($0)\n" }.joined() + "}"
    }

    private static func sdl(for field: DemoFieldDefinition) -> String {
        let arguments = field.arguments.isEmpty ? "" : "(" + field.arguments.map(sdl(for:)).joined(separator: ", ") + ")"
        return "\(field.name)\(arguments): \(field.type)"
    }

    private static func sdl(for argument: DemoArgumentDefinition) -> String {
        "\(argument.name): \(argument.type)" + (argument.defaultValue.map { " = \($0.serializedString)" } ?? "")
    }
}
