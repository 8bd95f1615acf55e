/// A position in the configuration text, counted from 1 as editors show it.
struct YAMLMark: Sendable, Equatable, Comparable, CustomStringConvertible {
    var line: Int
    var column: Int

    static func < (lhs: YAMLMark, rhs: YAMLMark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    var description: String { "line \(line), column \(column)" }
}

/// What a scalar means under the YAML 1.2 core schema: `off` and `yes` are strings, quoted
/// `"123"` stays a string, plain `123` is an integer.
enum YAMLScalarKind: Sendable, Equatable {
    case string
    case null
    case bool
    case int
    case float

    /// "a string", "an integer", … for messages such as `expected a list, got an integer`.
    var phrase: String {
        switch self {
        case .string: "a string"
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .float: "a number"
        }
    }
}

/// A scalar as written, with the facts needed to type it.
struct YAMLScalar: Sendable, Equatable {
    enum Style: Sendable, Equatable {
        case plain
        case singleQuoted
        case doubleQuoted
        case literal
        case folded
    }

    var text: String
    var style: Style
    var kind: YAMLScalarKind
    /// True when the kind came from an explicit tag (`!!str 123`) rather than from the text.
    var isTagged: Bool

    init(text: String, style: Style, kind: YAMLScalarKind, isTagged: Bool = false) {
        self.text = text
        self.style = style
        self.kind = kind
        self.isTagged = isTagged
    }

    /// A plain, untagged scalar typed by the core schema.
    init(plain text: String) {
        self.init(text: text, style: .plain, kind: YAMLCoreSchema.kind(ofPlain: text))
    }
}

/// One `key: value` of a mapping; keys are always scalars.
struct YAMLMappingEntry: Sendable, Equatable {
    var key: String
    var keyMark: YAMLMark
    var value: YAMLNode
}

/// A node of a YAML document with its position. Mappings keep their entries in file order and,
/// at this level, keep duplicate keys too: the decoder reports them with their key path.
struct YAMLNode: Sendable, Equatable {
    enum Content: Sendable, Equatable {
        case scalar(YAMLScalar)
        case mapping([YAMLMappingEntry])
        case sequence([YAMLNode])
    }

    var content: Content
    var mark: YAMLMark

    init(_ content: Content, mark: YAMLMark) {
        self.content = content
        self.mark = mark
    }

    /// "a mapping", "a list", or the scalar's kind, for type-mismatch messages.
    var phrase: String {
        switch content {
        case .scalar(let scalar): scalar.kind.phrase
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }

    var isNull: Bool {
        if case .scalar(let scalar) = content { return scalar.kind == .null }
        return false
    }
}
