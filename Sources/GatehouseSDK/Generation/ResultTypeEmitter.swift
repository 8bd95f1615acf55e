/// Writes the result types of an operation: one struct per selection set, shaped exactly like it
/// (`Decodable, Sendable, Hashable`, and `Identifiable` when it selects `id`), nested under the
/// field that selects it (`GetMovieByKeyQuery.Data.Movie.Director`). Nested names avoid every
/// name that could be shadowed: the enclosing types, sibling types and properties, the
/// top-level generated types and the Swift and Foundation types the code uses.
///
/// A fragment that narrows an interface or union becomes an optional `asType` property decoded
/// from the same JSON object when `__typename` is one of its possible types.
struct ResultTypeEmitter {
    let mapping: SwiftTypeMapping
    /// Top-level generated type names.
    let topLevelNames: Set<String>

    func emit(_ name: String, _ selection: ResolvedSelectionSet, enclosing: [String], into code: inout SwiftCode) {
        let propertyNames = selection.fields.map(\.responseKey)
        var taken = topLevelNames.union(SwiftNames.reservedTypeNames).union(enclosing).union(propertyNames)
        taken.insert(name)
        var nestedNames: [String: String] = [:]
        for field in selection.fields where field.selection != nil {
            let nested = SwiftNames.unique(SwiftNames.typeName(field.responseKey), suffix: "Selection", taken: taken)
            taken.insert(nested)
            nestedNames[field.responseKey] = nested
        }
        var usedProperties = Set(propertyNames)
        var conditions: [(property: String, type: String, condition: ResolvedCondition)] = []
        for condition in selection.conditions {
            let typeName = SwiftNames.unique("As" + SwiftNames.typeName(condition.typeName), suffix: "Fragment", taken: taken)
            taken.insert(typeName)
            let property = SwiftNames.unique("as" + SwiftNames.typeName(condition.typeName), suffix: "Fragment",
                                             taken: usedProperties)
            usedProperties.insert(property)
            conditions.append((property, typeName, condition))
        }
        let types = selection.fields.map { field in
            (field, mapping.swiftType(field.type) { named in nestedNames[field.responseKey] ?? mapping.leaf(named) })
        }
        var conformances = "Decodable, Sendable, Hashable"
        if selection.field("id") != nil { conformances += ", Identifiable" }
        code.block("public struct \(name): \(conformances)") { code in
            for (field, type) in types {
                code.line("public let \(SwiftNames.identifier(field.responseKey)): \(type)")
            }
            for condition in conditions {
                code.line("/// Set when the value is a \(condition.condition.possibleTypes.joined(separator: " or ")).")
                code.line("public let \(SwiftNames.identifier(condition.property)): \(condition.type)?")
            }
            if !conditions.isEmpty {
                code.line()
                emitDecoder(types: types, conditions: conditions, selection: selection, into: &code)
            }
            for field in selection.fields {
                guard let nested = field.selection, let nestedName = nestedNames[field.responseKey] else { continue }
                code.line()
                emit(nestedName, nested, enclosing: enclosing + [name], into: &code)
            }
            for condition in conditions {
                code.line()
                emit(condition.type, condition.condition.selection, enclosing: enclosing + [name], into: &code)
            }
        }
    }

    /// Fields from the container; each narrowing part from the same decoder when it applies.
    private func emitDecoder(types: [(ResolvedField, String)],
                             conditions: [(property: String, type: String, condition: ResolvedCondition)],
                             selection: ResolvedSelectionSet, into code: inout SwiftCode) {
        let typename = selection.fields.first { $0.fieldName == "__typename" }.map { SwiftNames.identifier($0.responseKey) }
            ?? "__typename"
        code.block("public init(from decoder: any Decoder) throws") { code in
            code.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
            for (field, type) in types {
                let key = SwiftNames.identifier(field.responseKey)
                if type.hasSuffix("?") {
                    code.line("self.\(key) = try container.decodeIfPresent(\(type.dropLast()).self, forKey: .\(key))")
                } else {
                    code.line("self.\(key) = try container.decode(\(type).self, forKey: .\(key))")
                }
            }
            for condition in conditions {
                let possible = condition.condition.possibleTypes.map(SwiftNames.literal).joined(separator: ", ")
                code.line("self.\(SwiftNames.identifier(condition.property)) = [\(possible)].contains(self.\(typename))"
                          + " ? try \(condition.type)(from: decoder) : nil")
            }
        }
        code.line()
        code.block("enum CodingKeys: String, CodingKey") { code in
            for (field, _) in types {
                code.line("case \(SwiftNames.identifier(field.responseKey))")
            }
        }
    }
}
