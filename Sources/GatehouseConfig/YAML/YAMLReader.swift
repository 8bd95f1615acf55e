import CYAML

/// A document that could not be read as YAML, with the position libyaml reported.
struct YAMLReadError: Error, Sendable, Equatable {
    var message: String
    var mark: YAMLMark?
}

/// Reads one YAML (or JSON) document into a `YAMLNode` tree on libyaml's event API.
///
/// Deliberately refused, so that what the file says is what the gateway does: anchors and aliases
/// (a config is short enough to write out, and aliases make "which value applies" non-local),
/// more than one document, tags other than the core schema's, and non-scalar mapping keys.
enum YAMLReader {
    /// Nesting beyond this is refused, so that walking the tree can never exhaust the stack.
    static let maximumDepth = 64

    /// The document's root node; nil when the text holds no document (empty or only comments).
    static func read(_ text: String) -> Result<YAMLNode?, YAMLReadError> {
        let bytes = Array(text.utf8)
        if bytes.isEmpty { return .success(nil) }

        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else {
            return .failure(YAMLReadError(message: "cannot initialise the YAML parser", mark: nil))
        }
        defer { yaml_parser_delete(&parser) }

        return bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var builder = YAMLTreeBuilder()
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) != 0 else {
                    return .failure(syntaxError(of: parser))
                }
                let step = builder.consume(event)
                yaml_event_delete(&event)
                switch step {
                case .needMore: continue
                case .finished: return .success(builder.root)
                case .failed(let error): return .failure(error)
                }
            }
        }
    }

    // MARK: - Syntax errors

    private static func syntaxError(of parser: yaml_parser_t) -> YAMLReadError {
        let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        var message = problem
        if let context = parser.context {
            let contextMark = YAMLMark(parser.context_mark)
            message += " (\(String(cString: context)) at \(contextMark))"
        }
        return YAMLReadError(message: message, mark: YAMLMark(parser.problem_mark))
    }
}

extension YAMLMark {
    /// libyaml counts lines and columns from 0.
    init(_ mark: yaml_mark_t) {
        self.init(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }
}
