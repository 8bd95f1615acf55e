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
    /// optional and left out of the JSON when nil.
    func emitInput(_ type: SchemaType, named name: String, into code: inout SwiftCode) {
        let fields = type.fields.map { field in
            let swift = mapping.swiftType(field.type)
            let isOptional = !field.type.isNonNull || field.hasDefault
            return (name: SwiftNames.identifier(field.name), type: isOptional && !swift.hasSuffix("?") ? swift + "?" : swift,
                    isOptional: isOptional)
        }
        code.line("/// The GraphQL input object `\(type.name)`.")
        code.block("public struct \(name): Encodable, Sendable, Hashable") { code in
            for field in fields { code.line("public var \(field.name): \(field.type)") }
            code.line()
            let parameters = fields.map { "\($0.name): \($0.type)" + ($0.isOptional ? " = nil" : "") }
            code.block("public init(\(parameters.joined(separator: ", ")))") { code in
                for field in fields { code.line("self.\(field.name) = \(field.name)") }
            }
        }
    }
}
