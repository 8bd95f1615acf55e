/// Collects every problem of a configuration with the position it concerns, and hands them
/// back in file order (ties keep the order they were found in).
struct IssueCollector {
    private var entries: [(mark: YAMLMark, sequence: Int, issue: ConfigIssue)] = []

    var isEmpty: Bool { entries.isEmpty }

    mutating func report(_ path: String, _ message: String, at mark: YAMLMark) {
        entries.append((mark, entries.count, ConfigIssue(path: path, message: message)))
    }

    var inFileOrder: [ConfigIssue] {
        entries.sorted { ($0.mark, $0.sequence) < ($1.mark, $1.sequence) }.map(\.issue)
    }
}
