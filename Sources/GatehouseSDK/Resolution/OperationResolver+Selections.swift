import GatehouseGraphQL

// Selection sets: fields merged by response key, fragments either merged (when they always
// apply) or kept as conditions (when they narrow the type).

extension OperationResolver {
    /// What a selection set collects before its fields' own selections are resolved.
    struct Collected {
        struct Field {
            var fieldName: String
            var type: GraphQLTypeRef
            var isComposite: Bool
            var location: OperationLocation
            var selections: [SelectionNode] = []
        }

        var fields: [(key: String, field: Field)] = []
        var conditions: [(typeName: String, location: OperationLocation, selections: [SelectionNode])] = []
    }

    mutating func resolveSet(_ selections: [SelectionNode], on typeName: String) -> ResolvedSelectionSet {
        var collected = Collected()
        collect(selections, on: typeName, into: &collected)
        var fields: [ResolvedField] = []
        for (key, field) in collected.fields {
            let selection = field.isComposite ? resolveSet(field.selections, on: field.type.namedType) : nil
            fields.append(ResolvedField(responseKey: key, fieldName: field.fieldName, type: field.type,
                                        selection: selection))
        }
        var conditions: [ResolvedCondition] = []
        let enclosing = schema.possibleTypes(of: typeName)
        for condition in collected.conditions {
            let possible = schema.possibleTypes(of: condition.typeName).intersection(enclosing).sorted()
            conditions.append(ResolvedCondition(typeName: condition.typeName, possibleTypes: possible,
                                                selection: resolveSet(condition.selections, on: condition.typeName)))
        }
        if let first = collected.conditions.first, !fields.contains(where: { $0.fieldName == "__typename" }) {
            report(first.location, "select __typename next to the fragment on \"\(first.typeName)\": the client needs it to tell which \(typeName) arrived")
        }
        return ResolvedSelectionSet(typeName: typeName, fields: fields, conditions: conditions)
    }

    // MARK: - Collecting

    mutating func collect(_ selections: [SelectionNode], on typeName: String, into collected: inout Collected) {
        for selection in selections {
            switch selection {
            case .field(let field):
                collectField(field, on: typeName, into: &collected)
            case .fragmentSpread(let name, let location):
                guard let fragment = fragments[name] else {
                    report(location, "unknown fragment \"\(name)\"")
                    continue
                }
                guard !expanding.contains(name) else {
                    report(location, "fragment cycle: \((expanding + [name]).joined(separator: " -> "))")
                    continue
                }
                expanding.append(name)
                apply(fragment.selections, condition: fragment.typeCondition, at: fragment.location,
                      on: typeName, into: &collected)
                expanding.removeLast()
            case .inlineFragment(let condition, let selections, let location):
                apply(selections, condition: condition ?? typeName, at: location, on: typeName, into: &collected)
            }
        }
    }

    /// A fragment on `condition` inside a selection set on `typeName`.
    private mutating func apply(_ selections: [SelectionNode], condition: String, at location: OperationLocation,
                                on typeName: String, into collected: inout Collected) {
        guard let conditionType = schema[condition] else {
            report(location, "unknown type \"\(condition)\" in a fragment")
            return
        }
        guard conditionType.isComposite else {
            report(location, "a fragment cannot be on \"\(condition)\", which is not an object, interface or union")
            return
        }
        let enclosing = schema.possibleTypes(of: typeName)
        let possible = schema.possibleTypes(of: condition)
        if condition == typeName || enclosing.isSubset(of: possible) {
            collect(selections, on: typeName, into: &collected)
            return
        }
        guard !possible.isDisjoint(with: enclosing) else {
            report(location, "a fragment on \"\(condition)\" can never apply to \"\(typeName)\"")
            return
        }
        if let index = collected.conditions.firstIndex(where: { $0.typeName == condition }) {
            collected.conditions[index].selections += selections
        } else {
            collected.conditions.append((condition, location, selections))
        }
    }

    private mutating func collectField(_ node: FieldNode, on typeName: String, into collected: inout Collected) {
        let key = node.responseKey
        guard let field = lookUp(node, on: typeName) else { return }
        checkArguments(of: node, against: field, on: typeName)
        let namedType = schema[field.type.namedType]
        let isComposite = namedType?.isComposite ?? false
        if isComposite, node.selections == nil {
            report(node.location, "field \"\(node.name)\" of type \"\(field.type)\" needs a selection of subfields")
            return
        }
        if !isComposite, node.selections != nil {
            report(node.location, "field \"\(node.name)\" of type \"\(field.type)\" has no subfields to select")
            return
        }
        if let index = collected.fields.firstIndex(where: { $0.key == key }) {
            let existing = collected.fields[index].field
            guard existing.fieldName == node.name, existing.type == field.type else {
                report(node.location, "response key \"\(key)\" names both \"\(existing.fieldName)\" and \"\(node.name)\"; use an alias for one of them")
                return
            }
            collected.fields[index].field.selections += node.selections ?? []
            return
        }
        collected.fields.append((key, Collected.Field(fieldName: node.name, type: field.type, isComposite: isComposite,
                                                      location: node.location, selections: node.selections ?? [])))
    }

    /// The schema field a selection names; `__typename` exists on every composite type.
    private mutating func lookUp(_ node: FieldNode, on typeName: String) -> SchemaField? {
        if node.name == "__typename" {
            return SchemaField(name: "__typename", type: .nonNull(.named("String")), position: node.location.position)
        }
        guard let type = schema[typeName] else { return nil }
        if case .union = type.kind {
            report(node.location, "cannot select field \"\(node.name)\" on union \"\(typeName)\"; use a fragment on one of its members")
            return nil
        }
        guard let field = type.field(named: node.name) else {
            report(node.location, "type \"\(typeName)\" has no field \"\(node.name)\"")
            return nil
        }
        return field
    }

    private mutating func checkArguments(of node: FieldNode, against field: SchemaField, on typeName: String) {
        var given: Set<String> = []
        for argument in node.arguments {
            given.insert(argument.name)
            if field.arguments.first(where: { $0.name == argument.name }) == nil {
                report(argument.location, "field \"\(typeName).\(field.name)\" has no argument \"\(argument.name)\"")
            }
            for variable in argument.variables where !definedVariables.contains(variable.name) {
                report(variable.location, "variable \"$\(variable.name)\" is not defined by the operation")
            }
        }
        for argument in field.arguments where argument.type.isNonNull && !argument.hasDefault
            && !given.contains(argument.name) {
            report(node.location, "field \"\(typeName).\(field.name)\" needs its argument \"\(argument.name): \(argument.type)\"")
        }
    }
}
