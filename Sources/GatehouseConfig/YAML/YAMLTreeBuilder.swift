import CYAML

/// Assembles libyaml events into a `YAMLNode` tree, one event at a time.
struct YAMLTreeBuilder {
    enum Step {
        case needMore
        case finished
        case failed(YAMLReadError)
    }

    private enum Frame {
        case mapping(mark: YAMLMark, entries: [YAMLMappingEntry], pendingKey: (String, YAMLMark)?)
        case sequence(mark: YAMLMark, items: [YAMLNode])
    }

    private(set) var root: YAMLNode?
    private var stack: [Frame] = []
    private var documentCount = 0

    // MARK: - Events

    mutating func consume(_ event: yaml_event_t) -> Step {
        let mark = YAMLMark(event.start_mark)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documentCount += 1
            if documentCount > 1 {
                return fail("more than one YAML document; a configuration file holds exactly one", mark)
            }
            return .needMore
        case YAML_STREAM_END_EVENT:
            return .finished
        case YAML_ALIAS_EVENT:
            return fail("aliases (*name) are not supported; write the value out", mark)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            if scalar.anchor != nil { return anchorRefused(mark) }
            switch Self.scalar(from: scalar) {
            case .success(let value): return attach(YAMLNode(.scalar(value), mark: mark))
            case .failure(let error): return fail(error.message, mark)
            }
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start
            if start.anchor != nil { return anchorRefused(mark) }
            if let tag = Self.string(start.tag), tag != "tag:yaml.org,2002:seq" { return tagRefused(tag, mark) }
            return push(.sequence(mark: mark, items: []), mark)
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            if start.anchor != nil { return anchorRefused(mark) }
            if let tag = Self.string(start.tag), tag != "tag:yaml.org,2002:map" { return tagRefused(tag, mark) }
            return push(.mapping(mark: mark, entries: [], pendingKey: nil), mark)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { return fail("unbalanced collection", mark) }
            switch frame {
            case .sequence(let start, let items):
                return attach(YAMLNode(.sequence(items), mark: start))
            case .mapping(let start, let entries, _):
                return attach(YAMLNode(.mapping(entries), mark: start))
            }
        default:
            return .needMore
        }
    }

    // MARK: - Tree assembly

    private mutating func push(_ frame: Frame, _ mark: YAMLMark) -> Step {
        guard stack.count < YAMLReader.maximumDepth else {
            return fail("nested deeper than \(YAMLReader.maximumDepth) levels", mark)
        }
        stack.append(frame)
        return .needMore
    }

    private mutating func attach(_ node: YAMLNode) -> Step {
        guard let top = stack.popLast() else {
            root = node
            return .needMore
        }
        switch top {
        case .sequence(let mark, var items):
            items.append(node)
            stack.append(.sequence(mark: mark, items: items))
        case .mapping(let mark, var entries, let pendingKey):
            if let (key, keyMark) = pendingKey {
                entries.append(YAMLMappingEntry(key: key, keyMark: keyMark, value: node))
                stack.append(.mapping(mark: mark, entries: entries, pendingKey: nil))
            } else {
                guard case .scalar(let keyScalar) = node.content else {
                    return fail("a mapping key must be a plain value, not \(node.phrase)", node.mark)
                }
                stack.append(.mapping(mark: mark, entries: entries, pendingKey: (keyScalar.text, node.mark)))
            }
        }
        return .needMore
    }

    // MARK: - Scalars

    private static func scalar(from event: yaml_event_t.__Unnamed_union_data.__Unnamed_struct_scalar)
        -> Result<YAMLScalar, YAMLReadError> {
        let text = event.value.map {
            String(decoding: UnsafeBufferPointer(start: $0, count: Int(event.length)), as: UTF8.self)
        } ?? ""
        let style: YAMLScalar.Style
        switch event.style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: style = .literal
        case YAML_FOLDED_SCALAR_STYLE: style = .folded
        default: style = .plain
        }
        if let tag = string(event.tag) {
            guard let kind = YAMLCoreSchema.kind(ofTag: tag) else {
                return .failure(YAMLReadError(message: "unsupported tag \(tag)", mark: nil))
            }
            return .success(YAMLScalar(text: text, style: style, kind: kind, isTagged: true))
        }
        let kind = style == .plain ? YAMLCoreSchema.kind(ofPlain: text) : .string
        return .success(YAMLScalar(text: text, style: style, kind: kind))
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafePointer($0)) }
    }

    // MARK: - Refusals

    private func fail(_ message: String, _ mark: YAMLMark) -> Step {
        .failed(YAMLReadError(message: message, mark: mark))
    }

    private func anchorRefused(_ mark: YAMLMark) -> Step {
        fail("anchors (&name) and aliases are not supported; write the value out", mark)
    }

    private func tagRefused(_ tag: String, _ mark: YAMLMark) -> Step {
        fail("unsupported tag \(tag)", mark)
    }
}
