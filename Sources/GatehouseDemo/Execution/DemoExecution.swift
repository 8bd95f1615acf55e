import GatehouseGraphQL

/// One execution of a validated operation: walks the selection sets, calls the root resolvers,
/// completes values against their schema types and collects field errors.
///
/// Completion returns nil for "null because something under it failed in a non-null position";
/// that nil travels up to the nearest nullable position, which becomes `null` (GraphQL's error
/// propagation). A plain `null` from the data is `.null` and travels nowhere.
struct DemoExecution {
    let resolvers: DemoRootResolvers
    let context: DemoRootResolvers.Context
    let fragments: [GraphQLFragmentDefinition]
    let variables: JSONObject
    private(set) var errors: [DemoGraphQLError] = []

    init(resolvers: DemoRootResolvers, context: DemoRootResolvers.Context,
         fragments: [GraphQLFragmentDefinition], variables: JSONObject) {
        self.resolvers = resolvers
        self.context = context
        self.fragments = fragments
        self.variables = variables
    }

    // MARK: - Selection sets

    /// The `data` object; nil when a non-null root field failed.
    mutating func executeRoot(_ rootType: String, _ selections: [GraphQLSelection]) -> JSONObject? {
        executeSelections(selections, on: rootType, of: nil, path: [])
    }

    /// GraphQL's ExecuteSelectionSet on an object of `typeName`: `source` holds its fields'
    /// values, or is nil for a root type, whose fields the resolvers answer. Nil when a
    /// non-null field came out null.
    private mutating func executeSelections(_ selections: [GraphQLSelection], on typeName: String,
                                            of source: DemoObject?, path: [JSONValue]) -> JSONObject? {
        guard let type = DemoSchema.objectType(named: typeName) else { return nil }
        var result = JSONObject()
        for (key, fields) in collectFields(typeName, selections) {
            let field = fields[0]
            if field.name == "__typename" {
                result[key] = .string(typeName)
                continue
            }
            guard let definition = type.field(named: field.name) else { continue }
            let fieldPath = path + [.string(key)]
            let value: JSONValue?
            if let source {
                value = complete(definition.type, source.fields[field.name] ?? .null, fields, path: fieldPath)
            } else {
                value = resolveRootField(typeName, field, definition, fields, path: fieldPath)
            }
            guard let value else {
                if definition.type.isNonNull { return nil }
                result[key] = .null
                continue
            }
            result[key] = value
        }
        return result
    }

    private mutating func resolveRootField(_ rootType: String, _ field: GraphQLField, _ definition: DemoFieldDefinition,
                                           _ fields: [GraphQLField], path: [JSONValue]) -> JSONValue? {
        do {
            let arguments = try coerceArguments(field, definition)
            let resolved = try resolvers.resolve(rootType, field.name, arguments, context)
            return complete(definition.type, resolved, fields, path: path)
        } catch {
            errors.append(DemoGraphQLError(message: error.message, locations: [field.position], path: path,
                                           code: error.code))
            return nil
        }
    }

    // MARK: - Completion

    /// `resolved` shaped by `type` and the sub-selections of `fields` (all the fields merged
    /// under one response key).
    private mutating func complete(_ type: GraphQLTypeRef, _ resolved: DemoValue, _ fields: [GraphQLField],
                                   path: [JSONValue]) -> JSONValue? {
        switch type {
        case .nonNull(let inner):
            let value = complete(inner, resolved, fields, path: path)
            if value?.isNull ?? false {
                errors.append(DemoGraphQLError(
                    message: "Cannot return null for non-nullable field \(fields[0].name).",
                    locations: [fields[0].position], path: path, code: DemoErrorCode.internalError))
                return nil
            }
            return value
        case .list(let element):
            guard case .list(let items) = resolved else { return .null }
            var values: [JSONValue] = []
            for (index, item) in items.enumerated() {
                guard let value = complete(element, item, fields, path: path + [.number(String(index))]) else {
                    if element.isNonNull { return nil }
                    values.append(.null)
                    continue
                }
                values.append(value)
            }
            return .array(values)
        case .named:
            switch resolved {
            case .null: return .null
            case .leaf(let value): return value
            case .list: return .null
            case .object(let object):
                return executeSelections(fields.flatMap(\.selections), on: object.typeName, of: object,
                                         path: path).map(JSONValue.object)
            }
        }
    }

    // MARK: - Collecting fields

    /// GraphQL's CollectFields: the fields that apply to an object of `typeName`, grouped by
    /// response key in the order they first appear, through fragments and `@skip`/`@include`.
    func collectFields(_ typeName: String, _ selections: [GraphQLSelection]) -> [(String, [GraphQLField])] {
        var groups: [(String, [GraphQLField])] = []
        var visitedFragments: Set<String> = []
        collect(typeName, selections, into: &groups, visitedFragments: &visitedFragments)
        return groups
    }

    private func collect(_ typeName: String, _ selections: [GraphQLSelection],
                         into groups: inout [(String, [GraphQLField])], visitedFragments: inout Set<String>) {
        for selection in selections {
            switch selection {
            case .field(let field):
                guard isIncluded(field.directives) else { continue }
                if let index = groups.firstIndex(where: { $0.0 == field.responseKey }) {
                    groups[index].1.append(field)
                } else {
                    groups.append((field.responseKey, [field]))
                }
            case .fragmentSpread(let name, let directives):
                guard isIncluded(directives), visitedFragments.insert(name).inserted,
                      let fragment = fragments.first(where: { $0.name == name }),
                      DemoSchema.fragment(on: fragment.typeCondition, appliesTo: typeName) else { continue }
                collect(typeName, fragment.selections, into: &groups, visitedFragments: &visitedFragments)
            case .inlineFragment(let condition, let directives, let inner):
                guard isIncluded(directives) else { continue }
                if let condition, !DemoSchema.fragment(on: condition, appliesTo: typeName) { continue }
                collect(typeName, inner, into: &groups, visitedFragments: &visitedFragments)
            }
        }
    }

    /// `@skip(if: true)` leaves a selection out, `@include(if: false)` too.
    private func isIncluded(_ directives: [GraphQLDirective]) -> Bool {
        for directive in directives where directive.name == "skip" || directive.name == "include" {
            let condition = directive.arguments.first { $0.name == "if" }?.value.resolved(variables: variables)
            let flag = condition?.boolValue ?? false
            if directive.name == "skip" ? flag : !flag { return false }
        }
        return true
    }

    // MARK: - Arguments

    /// GraphQL's CoerceArgumentValues: each defined argument from the field, a variable or the
    /// default; a missing or null non-null argument is a field error.
    private func coerceArguments(_ field: GraphQLField,
                                 _ definition: DemoFieldDefinition) throws(DemoFieldError) -> DemoArguments {
        var values = JSONObject()
        for argument in definition.arguments {
            let given = field.arguments.first { $0.name == argument.name }?.value.resolved(variables: variables)
            if let value = given ?? argument.defaultValue {
                if value.isNull && argument.type.isNonNull {
                    throw .badInput("Argument \"\(argument.name)\" of non-null type \"\(argument.type)\" must not be null.")
                }
                values[argument.name] = value
            } else if argument.type.isNonNull {
                throw .badInput("Argument \"\(argument.name)\" of required type \"\(argument.type)\" was not provided.")
            }
        }
        return DemoArguments(values)
    }
}
