import GatehouseGraphQL

/// The checks GraphQL's validation makes before execution that the demo's answers depend on:
/// every field exists on its type, leaves have no selection set and objects have one,
/// arguments are defined, fragments exist and are spread on types they can apply to, and every
/// variable used is defined. A document failing any of them is not executed at all.
struct DemoValidator {
    let document: GraphQLDocument

    func validate(_ operation: GraphQLOperationDefinition, rootType: String) -> [DemoGraphQLError] {
        var walk = Walk(fragments: document.fragments, definedVariables: Set(operation.variables.map(\.name)))
        walk.check(operation.selections, on: rootType)
        return walk.errors
    }

    private struct Walk {
        let fragments: [GraphQLFragmentDefinition]
        let definedVariables: Set<String>
        var errors: [DemoGraphQLError] = []
        /// Fragments being walked, to refuse one that spreads itself.
        var spreading: [String] = []

        mutating func check(_ selections: [GraphQLSelection], on typeName: String) {
            for selection in selections {
                switch selection {
                case .field(let field):
                    check(field, on: typeName)
                case .fragmentSpread(let name, let directives):
                    checkVariables(in: directives.flatMap(\.arguments), at: nil)
                    guard let fragment = fragments.first(where: { $0.name == name }) else {
                        fail("Unknown fragment \"\(name)\".", at: nil)
                        continue
                    }
                    guard !spreading.contains(name) else {
                        fail("Cannot spread fragment \"\(name)\" within itself.", at: fragment.position)
                        continue
                    }
                    spreading.append(name)
                    checkFragment(on: fragment.typeCondition, inside: typeName, fragment.selections,
                                  at: fragment.position)
                    spreading.removeLast()
                case .inlineFragment(let condition, let directives, let inner):
                    checkVariables(in: directives.flatMap(\.arguments), at: nil)
                    checkFragment(on: condition ?? typeName, inside: typeName, inner, at: nil)
                }
            }
        }

        private mutating func checkFragment(on condition: String, inside typeName: String,
                                            _ selections: [GraphQLSelection], at position: GraphQLSourcePosition?) {
            guard let type = DemoSchema.type(named: condition), type.isComposite else {
                fail("Unknown type \"\(condition)\".", at: position)
                return
            }
            guard canOverlap(condition, typeName) else {
                fail("Fragment cannot be spread here as objects of type \"\(typeName)\" can never be of type \"\(condition)\".",
                     at: position)
                return
            }
            check(selections, on: condition)
        }

        /// Some object type is both `a` and `b`.
        private func canOverlap(_ a: String, _ b: String) -> Bool {
            DemoSchema.types.contains { type in
                guard case .object(let object) = type else { return false }
                return DemoSchema.fragment(on: a, appliesTo: object.name) && DemoSchema.fragment(on: b, appliesTo: object.name)
            }
        }

        private mutating func check(_ field: GraphQLField, on typeName: String) {
            checkVariables(in: field.arguments + field.directives.flatMap(\.arguments), at: field.position)
            if field.name == "__typename" {
                if !field.selections.isEmpty { noSubfields(field, "String!") }
                return
            }
            guard let definition = DemoSchema.type(named: typeName)?.fields?.first(where: { $0.name == field.name }) else {
                fail("Cannot query field \"\(field.name)\" on type \"\(typeName)\".", at: field.position)
                return
            }
            for argument in field.arguments where !definition.arguments.contains(where: { $0.name == argument.name }) {
                fail("Unknown argument \"\(argument.name)\" on field \"\(typeName).\(field.name)\".", at: field.position)
            }
            let typeNameOfField = definition.type.namedType
            let isComposite = DemoSchema.type(named: typeNameOfField)?.isComposite ?? false
            if isComposite && field.selections.isEmpty {
                fail("Field \"\(field.name)\" of type \"\(definition.type)\" must have a selection of subfields.",
                     at: field.position)
            } else if !isComposite && !field.selections.isEmpty {
                noSubfields(field, definition.type.description)
            } else if isComposite {
                check(field.selections, on: typeNameOfField)
            }
        }

        private mutating func noSubfields(_ field: GraphQLField, _ type: String) {
            fail("Field \"\(field.name)\" must not have a selection since type \"\(type)\" has no subfields.",
                 at: field.position)
        }

        private mutating func checkVariables(in arguments: [GraphQLArgument], at position: GraphQLSourcePosition?) {
            for argument in arguments {
                for name in Self.variableNames(in: argument.value) where !definedVariables.contains(name) {
                    fail("Variable \"$\(name)\" is not defined.", at: position)
                }
            }
        }

        private static func variableNames(in value: GraphQLInputValue) -> [String] {
            switch value {
            case .variable(let name): [name]
            case .list(let elements): elements.flatMap(variableNames(in:))
            case .object(let fields): fields.flatMap { variableNames(in: $0.value) }
            default: []
            }
        }

        private mutating func fail(_ message: String, at position: GraphQLSourcePosition?) {
            errors.append(DemoGraphQLError(message: message, locations: position.map { [$0] } ?? [],
                                           code: DemoErrorCode.validationFailed))
        }
    }
}
