/// The value of a block string (`"""…"""`) from its raw text, per BlockStringValue (GraphQL spec,
/// October 2021, §2.9.4): the common indentation of every line but the first is removed, then
/// leading and trailing blank lines, and lines are joined with `\n`.
enum GraphQLBlockString {
    static func value(ofRaw raw: [UInt8]) -> String {
        let lines = splitLines(raw)
        var commonIndent: Int?
        for line in lines.dropFirst() {
            let indent = leadingWhitespace(line)
            if indent < line.count, indent < (commonIndent ?? Int.max) {
                commonIndent = indent
            }
        }
        var dedented = lines
        if let commonIndent {
            for index in dedented.indices.dropFirst() {
                dedented[index] = dedented[index].dropFirst(min(commonIndent, dedented[index].count))
            }
        }
        while let first = dedented.first, leadingWhitespace(first) == first.count {
            dedented.removeFirst()
        }
        while let last = dedented.last, leadingWhitespace(last) == last.count {
            dedented.removeLast()
        }
        var result: [UInt8] = []
        for (index, line) in dedented.enumerated() {
            if index > 0 { result.append(UInt8(ascii: "\n")) }
            result.append(contentsOf: line)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Lines split at `\n`, `\r\n` and `\r`.
    private static func splitLines(_ raw: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = 0
        var index = 0
        while index < raw.count {
            switch raw[index] {
            case UInt8(ascii: "\n"):
                lines.append(raw[lineStart..<index])
                index += 1
                lineStart = index
            case UInt8(ascii: "\r"):
                lines.append(raw[lineStart..<index])
                index += raw.count > index + 1 && raw[index + 1] == UInt8(ascii: "\n") ? 2 : 1
                lineStart = index
            default:
                index += 1
            }
        }
        lines.append(raw[lineStart..<raw.count])
        return lines
    }

    private static func leadingWhitespace(_ line: ArraySlice<UInt8>) -> Int {
        line.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.count
    }
}
