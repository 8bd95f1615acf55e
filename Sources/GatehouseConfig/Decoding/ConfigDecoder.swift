/// Decodes a YAML tree into `GatewayConfig`, collecting every problem with its key path instead
/// of stopping at the first. Each reader returns nil for a refused value after reporting why, so
/// the caller keeps the default and goes on. Sections live in `ConfigDecoder+<Section>.swift`.
final class ConfigDecoder {
    let environment: [String: String]
    let files: FileChecks
    private(set) var issues = IssueCollector()

    init(environment: [String: String], files: FileChecks) {
        self.environment = environment
        self.files = files
    }

    func report(_ path: String, _ message: String, at mark: YAMLMark) {
        issues.report(path, message, at: mark)
    }

    // MARK: - Collections

    /// A mapping reader; null (a key with nothing after it) reads as an empty mapping.
    func mapping(_ node: YAMLNode, _ path: String) -> MappingReader? {
        switch node.content {
        case .mapping(let entries):
            return MappingReader(entries: entries, path: path, mark: node.mark, decoder: self)
        case .scalar where node.isNull:
            return MappingReader(entries: [], path: path, mark: node.mark, decoder: self)
        default:
            report(path, "expected a mapping, got \(node.phrase)", at: node.mark)
            return nil
        }
    }

    /// The items of a list; null reads as an empty list.
    func list(_ node: YAMLNode, _ path: String) -> [YAMLNode]? {
        switch node.content {
        case .sequence(let items): return items
        case .scalar where node.isNull: return []
        default:
            report(path, "expected a list, got \(node.phrase)", at: node.mark)
            return nil
        }
    }

    /// Every item read by `read` at `path[i]`; nil when the node is not a list or any item was refused.
    func list<T>(_ node: YAMLNode, _ path: String, _ read: (YAMLNode, String) -> T?) -> [T]? {
        guard let items = list(node, path) else { return nil }
        var values: [T] = []
        var allRead = true
        for (index, item) in items.enumerated() {
            if let value = read(item, path.appendingIndex(index)) { values.append(value) } else { allRead = false }
        }
        return allRead ? values : nil
    }

    // MARK: - Scalars

    /// The scalar with `${…}` substituted. A scalar that held a substitution is typed again from
    /// its new text, quoted or not (`workers: "${WORKERS}"` is an integer), unless it has an
    /// explicit tag; one that became empty is an empty string, never null. Quoted text without a
    /// substitution keeps its type: `"123"` is a string.
    func scalar(_ node: YAMLNode, _ path: String, expected: String) -> YAMLScalar? {
        guard case .scalar(var scalar) = node.content else {
            report(path, "expected \(expected), got \(node.phrase)", at: node.mark)
            return nil
        }
        guard EnvironmentSubstitution.mayChange(scalar.text) else { return scalar }
        switch EnvironmentSubstitution.substitute(scalar.text, environment: environment) {
        case .failure(let problem):
            report(path, problem.message, at: node.mark)
            return nil
        case .success(let text):
            scalar.text = text
            if !scalar.isTagged {
                let kind = YAMLCoreSchema.kind(ofPlain: text)
                scalar.kind = kind == .null ? .string : kind
                scalar.style = .plain
            }
            return scalar
        }
    }

    /// Text. Numbers read as their text (`keys: [12345]`); null and a literal `true`/`false` are
    /// refused, since `access_log: false` would otherwise name a file "false".
    func string(_ node: YAMLNode, _ path: String) -> String? {
        if case .scalar(let written) = node.content, written.kind == .null || written.kind == .bool {
            report(path, "expected a string, got \(written.kind.phrase)", at: node.mark)
            return nil
        }
        return scalar(node, path, expected: "a string")?.text
    }

    func nonEmptyString(_ node: YAMLNode, _ path: String) -> String? {
        guard let text = string(node, path) else { return nil }
        guard !text.isEmpty else {
            report(path, "must not be empty", at: node.mark)
            return nil
        }
        return text
    }

    /// A decimal integer within `range`.
    func integer(_ node: YAMLNode, _ path: String, in range: ClosedRange<Int>) -> Int? {
        guard let scalar = scalar(node, path, expected: "an integer") else { return nil }
        guard scalar.kind == .int, let value = Int(scalar.text) else {
            report(path, "expected an integer, got \(Self.describe(scalar))", at: node.mark)
            return nil
        }
        guard range.contains(value) else {
            let bounds = range.upperBound == Int.max
                ? "must be at least \(range.lowerBound)"
                : "must be between \(range.lowerBound) and \(range.upperBound)"
            report(path, bounds, at: node.mark)
            return nil
        }
        return value
    }

    func bool(_ node: YAMLNode, _ path: String) -> Bool? {
        guard let scalar = scalar(node, path, expected: "true or false") else { return nil }
        guard scalar.kind == .bool, let value = YAMLCoreSchema.boolValue(of: scalar.text) else {
            report(path, "expected true or false, got \(Self.describe(scalar))", at: node.mark)
            return nil
        }
        return value
    }

    /// A value with its own syntax (durations, sizes, addresses), parsed from the scalar's text.
    func parsed<T>(_ node: YAMLNode, _ path: String, expected: String,
                   _ parse: (String) -> Result<T, ValueProblem>) -> T? {
        guard let scalar = scalar(node, path, expected: expected) else { return nil }
        guard scalar.kind != .null else {
            report(path, "expected \(expected), got null", at: node.mark)
            return nil
        }
        switch parse(scalar.text) {
        case .success(let value): return value
        case .failure(let problem):
            report(path, problem.message, at: node.mark)
            return nil
        }
    }

    /// A scalar as quoted in a type-mismatch message; only for non-secret keys.
    private static func describe(_ scalar: YAMLScalar) -> String {
        switch scalar.kind {
        case .null: return "null"
        case .string where scalar.style != .plain: return "the quoted string \"\(scalar.text)\""
        default: return "\"\(scalar.text)\""
        }
    }
}
