import GatehouseGraphQL

/// Writes the schema's enums and input objects that the operations use.
struct SchemaTypeEmitter {
    let mapping: SwiftTypeMapping

    /// An enum with a case per value and `_UNKNOWN(String)` for values added to the schema after
    /// the client was generated, so an old app keeps decoding; Codable as its GraphQL name.
    func emitEnum(_ type: SchemaType, named name: String, into code: inout SwiftCode) {
        let values = type.enumValues
        code.line("/// The GraphQL enum `\(type.name)`.")
        code.block("public enum \(name): Sendable, Hashable, Codable") { code in
            for value in values { code.line("case \(SwiftNames.identifier(value))") }
            code.line("/// A value this client does not know (the schema grew after it was generated), as sent.")
            code.line("case _UNKNOWN(String)")
            code.line()
            code.block("public init(rawValue: String)") { code in
                code.switchBlock("rawValue") { code in
                    for value in values {
                        code.line("case \(SwiftNames.literal(value)): self = .\(SwiftNames.identifier(value))")
                    }
                    code.line("default: self = ._UNKNOWN(rawValue)")
                }
            }
            code.line()
            code.block("public var rawValue: String") { code in
                code.switchBlock("self") { code in
                    for value in values {
                        code.line("case .\(SwiftNames.identifier(value)): \(SwiftNames.literal(value))")
                    }
                    code.line("case ._UNKNOWN(let value): value")
                }
            }
            code.line()
            code.block("public init(from decoder: any Decoder) throws") { code in
                code.line("self.init(rawValue: try decoder.singleValueContainer().decode(String.self))")
            }
            code.line()
            code.block("public func encode(to encoder: any Encoder) throws") { code in
                code.line("var container = encoder.singleValueContainer()")
                code.line("try container.encode(rawValue)")
            }
        }
        code.line()
        code.block("extension \(name): QueryParameterValue") { code in
            code.line("var queryParameterText: String { rawValue }")
        }
    }

    /// A struct with a property per input field; nullable fields and fields with defaults are
    /// optional and left out of the JSON when nil. A field that leads back to its own type (a
    /// filter's `_not: MovieFilter`) is stored in an `IndirectInput` box, since a struct cannot
    /// hold itself; the property keeps its plain type.
    func emitInput(_ type: SchemaType, named name: String, into code: inout SwiftCode) {
        let fields = type.fields.map { field in
            let swift = mapping.swiftType(field.type)
            let isOptional = !field.type.isNonNull || field.hasDefault
            return InputField(key: field.name, name: SwiftNames.identifier(field.name),
                              type: isOptional && !swift.hasSuffix("?") ? swift + "?" : swift,
                              isOptional: isOptional, isBoxed: leadsBack(field.type, to: type.name))
        }
        code.line("/// The GraphQL input object `\(type.name)`.")
        code.block("public struct \(name): Encodable, Sendable, Hashable") { code in
            for field in fields where !field.isBoxed { code.line("public var \(field.name): \(field.type)") }
            for field in fields where field.isBoxed { emitBoxed(field, into: &code) }
            code.line()
            let parameters = fields.map { "\($0.name): \($0.type)" + ($0.isOptional ? " = nil" : "") }
            code.block("public init(\(parameters.joined(separator: ", ")))") { code in
                for field in fields {
                    if !field.isBoxed {
                        code.line("self.\(field.name) = \(field.name)")
                    } else if field.isOptional {
                        code.line("self.\(field.storage) = \(field.name).map(IndirectInput.init)")
                    } else {
                        code.line("self.\(field.storage) = IndirectInput(\(field.name))")
                    }
                }
            }
            guard fields.contains(where: \.isBoxed) else { return }
            code.line()
            code.block("enum CodingKeys: String, CodingKey") { code in
                for field in fields {
                    code.line(field.isBoxed ? "case \(field.storage) = \(SwiftNames.literal(field.key))" : "case \(field.name)")
                }
            }
        }
    }

    private struct InputField {
        var key: String
        var name: String
        var type: String
        var isOptional: Bool
        var isBoxed: Bool

        var storage: String { "_\(key)Storage" }
    }

    private func emitBoxed(_ field: InputField, into code: inout SwiftCode) {
        let wrapped = field.isOptional ? String(field.type.dropLast()) : field.type
        code.block("public var \(field.name): \(field.type)") { code in
            code.line(field.isOptional ? "get { \(field.storage)?.value }" : "get { \(field.storage).value }")
            code.line(field.isOptional ? "set { \(field.storage) = newValue.map(IndirectInput.init) }"
                                       : "set { \(field.storage) = IndirectInput(newValue) }")
        }
        code.line("private var \(field.storage): IndirectInput<\(wrapped)>\(field.isOptional ? "?" : "")")
    }

    /// True when a field of this type reaches `typeName` again through input-object fields that
    /// are not lists (lists are stored out of line already).
    private func leadsBack(_ type: GraphQLTypeRef, to typeName: String) -> Bool {
        var seen: Set<String> = []
        var pending: [GraphQLTypeRef] = [type]
        while let next = pending.popLast() {
            guard case .named(let name) = next.nullable, case .inputObject = mapping.schema[name]?.kind else { continue }
            if name == typeName { return true }
            guard seen.insert(name).inserted else { continue }
            pending += mapping.schema[name]?.fields.map(\.type) ?? []
        }
        return false
    }
}
