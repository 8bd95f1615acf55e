import GatehouseGraphQL

/// Merges SDL definitions and their extensions into a `GraphQLSchema` and checks what the
/// generator relies on: one definition per name, every referenced type defined, output types
/// only where outputs go and input types only where inputs go, interfaces that are interfaces,
/// union members that are objects, and root types that are objects.
struct SchemaBuilder {
    let file: String
    private var issues: [SDKIssue] = []
    private var types: [String: SchemaType] = [:]
    private var order: [String] = []

    init(file: String) {
        self.file = file
    }

    mutating func build(definitions: [SDLDefinition],
                        schemaDefinitions: [SDLSchemaDefinition]) -> Result<GraphQLSchema, SDKIssues> {
        for name in GraphQLSchema.builtInScalars {
            types[name] = SchemaType(name: name, kind: .scalar)
            order.append(name)
        }
        for definition in definitions where !definition.isExtension { define(definition) }
        for definition in definitions where definition.isExtension { extend(with: definition) }
        for definition in definitions { checkReferences(of: definition) }
        for name in order { checkDuplicateFields(of: name) }
        let roots = rootTypes(schemaDefinitions)
        guard issues.isEmpty else { return .failure(SDKIssues(issues.inSourceOrder)) }
        return .success(GraphQLSchema(types: types, typeOrder: order, queryType: roots[.query],
                                      mutationType: roots[.mutation], subscriptionType: roots[.subscription]))
    }

    // MARK: - Definitions

    private mutating func define(_ definition: SDLDefinition) {
        if let existing = types[definition.name] {
            let first = existing.position.map { " (first defined at \(file):\($0))" } ?? " (a built-in scalar)"
            report(definition.position, "duplicate type \"\(definition.name)\"\(first)")
            return
        }
        types[definition.name] = SchemaType(name: definition.name, kind: kind(of: definition),
                                            fields: definition.fields,
                                            interfaces: definition.interfaces.map(\.name),
                                            position: definition.position)
        order.append(definition.name)
    }

    private func kind(of definition: SDLDefinition) -> SchemaType.Kind {
        switch definition.kind {
        case .scalar: .scalar
        case .type: .object
        case .interface: .interface
        case .union: .union(definition.members.map(\.name))
        case .enum: .enumeration(definition.enumValues.map(\.name))
        case .input: .inputObject
        }
    }

    private mutating func extend(with definition: SDLDefinition) {
        guard var type = types[definition.name] else {
            report(definition.position, "cannot extend unknown type \"\(definition.name)\"")
            return
        }
        guard sameKind(type.kind, definition.kind) else {
            report(definition.position, "\"extend \(definition.kind.rawValue) \(definition.name)\" does not match its definition")
            return
        }
        type.fields += definition.fields
        type.interfaces += definition.interfaces.map(\.name)
        switch type.kind {
        case .union(let members): type.kind = .union(members + definition.members.map(\.name))
        case .enumeration(let values): type.kind = .enumeration(values + definition.enumValues.map(\.name))
        default: break
        }
        types[definition.name] = type
    }

    private func sameKind(_ kind: SchemaType.Kind, _ written: SDLDefinition.Kind) -> Bool {
        switch (kind, written) {
        case (.scalar, .scalar), (.object, .type), (.interface, .interface), (.union, .union),
             (.enumeration, .enum), (.inputObject, .input): true
        default: false
        }
    }

    // MARK: - References

    private mutating func checkReferences(of definition: SDLDefinition) {
        for field in definition.fields {
            let isInput = definition.kind == .input
            checkType(field.type, at: field.position, asInput: isInput,
                      role: "field \"\(definition.name).\(field.name)\"")
            for argument in field.arguments {
                checkType(argument.type, at: argument.position, asInput: true,
                          role: "argument \"\(field.name)(\(argument.name):)\"")
            }
        }
        for interface in definition.interfaces {
            checkReference(interface, role: "interface", must: "an interface") {
                if case .interface = $0 { true } else { false }
            }
        }
        for member in definition.members {
            checkReference(member, role: "union member", must: "an object type") {
                if case .object = $0 { true } else { false }
            }
        }
        var values: Set<String> = []
        for value in definition.enumValues where !values.insert(value.name).inserted {
            report(value.position, "duplicate enum value \"\(definition.name).\(value.name)\"")
        }
    }

    /// A name that must be defined and be of the kind `isExpected` accepts.
    private mutating func checkReference(_ reference: SDLDefinition.Reference, role: String, must kind: String,
                                         isExpected: (SchemaType.Kind) -> Bool) {
        guard let type = types[reference.name] else {
            report(reference.position, "unknown \(role) \"\(reference.name)\"")
            return
        }
        if !isExpected(type.kind) {
            report(reference.position, "\(role) \"\(reference.name)\" is not \(kind)")
        }
    }

    /// After extensions are merged: a field name once per type.
    private mutating func checkDuplicateFields(of typeName: String) {
        guard let type = types[typeName] else { return }
        var names: Set<String> = []
        for field in type.fields where !names.insert(field.name).inserted {
            report(field.position, "duplicate field \"\(typeName).\(field.name)\"")
        }
    }

    private mutating func checkType(_ type: GraphQLTypeRef, at position: GraphQLSourcePosition,
                                    asInput: Bool, role: String) {
        let name = type.namedType
        guard let named = types[name] else {
            report(position, "unknown type \"\(name)\" of \(role)")
            return
        }
        if asInput, !named.isInput {
            report(position, "\(role) must have an input type, but \"\(name)\" is an output type")
        } else if !asInput, case .inputObject = named.kind {
            report(position, "\(role) must have an output type, but \"\(name)\" is an input type")
        }
    }

    // MARK: - Roots

    /// The `schema {}` definition's root types, or the types named Query, Mutation and
    /// Subscription when there is none (GraphQL spec §3.3.1).
    private mutating func rootTypes(_ definitions: [SDLSchemaDefinition]) -> [GraphQLOperationKind: String] {
        var roots: [GraphQLOperationKind: String] = [:]
        let written = definitions.flatMap(\.operationTypes)
        if definitions.isEmpty {
            for (kind, name) in [(GraphQLOperationKind.query, "Query"), (.mutation, "Mutation"),
                                 (.subscription, "Subscription")] where types[name] != nil {
                roots[kind] = name
            }
            return roots
        }
        for (kind, reference) in written {
            if roots[kind] != nil {
                report(reference.position, "\(kind.rawValue) root type given twice")
                continue
            }
            guard let type = types[reference.name] else {
                report(reference.position, "unknown \(kind.rawValue) root type \"\(reference.name)\"")
                continue
            }
            guard case .object = type.kind else {
                report(reference.position, "\(kind.rawValue) root type \"\(reference.name)\" must be an object type")
                continue
            }
            roots[kind] = reference.name
        }
        return roots
    }

    private mutating func report(_ position: GraphQLSourcePosition?, _ message: String) {
        issues.append(SDKIssue(file: file, position: position, message: message))
    }
}
