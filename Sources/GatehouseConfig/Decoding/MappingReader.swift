/// One mapping of the configuration being decoded: hands out values by key, reports duplicate
/// keys when it is made and every key nobody asked for when it is finished. Keys are the schema,
/// so a misspelt key is an error rather than a silently ignored line.
struct MappingReader {
    let path: String
    let mark: YAMLMark
    private let decoder: ConfigDecoder
    /// The first occurrence of every key, in file order.
    private(set) var entries: [YAMLMappingEntry] = []
    private var taken: Set<String> = []

    init(entries allEntries: [YAMLMappingEntry], path: String, mark: YAMLMark, decoder: ConfigDecoder) {
        self.path = path
        self.mark = mark
        self.decoder = decoder
        var firstMarks: [String: YAMLMark] = [:]
        for entry in allEntries {
            if let first = firstMarks[entry.key] {
                decoder.report(path.appendingKey(entry.key), "duplicate key (first at line \(first.line))",
                               at: entry.keyMark)
            } else {
                firstMarks[entry.key] = entry.keyMark
                entries.append(entry)
            }
        }
    }

    // MARK: - Reading

    func has(_ key: String) -> Bool {
        entries.contains { $0.key == key }
    }

    /// The value of `key`, marking the key as known; nil when absent.
    mutating func take(_ key: String) -> YAMLMappingEntry? {
        taken.insert(key)
        return entries.first { $0.key == key }
    }

    /// The value of `key` read by `read` at its key path; nil when absent or refused.
    mutating func value<T>(_ key: String, _ read: (YAMLNode, String) -> T?) -> T? {
        guard let entry = take(key) else { return nil }
        return read(entry.value, path.appendingKey(key))
    }

    /// Like `value`, and a missing key is reported with `message` at the mapping's position.
    mutating func required<T>(_ key: String, _ message: String = "required",
                              _ read: (YAMLNode, String) -> T?) -> T? {
        guard let entry = take(key) else {
            decoder.report(path.appendingKey(key), message, at: mark)
            return nil
        }
        return read(entry.value, path.appendingKey(key))
    }

    /// Every entry, for mappings whose keys are names chosen by the user (upstreams, headers).
    mutating func takeAll() -> [YAMLMappingEntry] {
        for entry in entries { taken.insert(entry.key) }
        return entries
    }

    /// Reports every key that was not asked for.
    func finish() {
        for entry in entries where !taken.contains(entry.key) {
            decoder.report(path.appendingKey(entry.key), "unknown key", at: entry.keyMark)
        }
    }
}
