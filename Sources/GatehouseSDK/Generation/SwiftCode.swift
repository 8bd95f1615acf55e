/// Swift source built line by line with four-space indentation.
struct SwiftCode {
    private(set) var text = ""
    private var indentation = 0
    private static let indentWidth = 4

    mutating func line(_ content: String = "") {
        if content.isEmpty {
            text += "\n"
        } else {
            text += String(repeating: " ", count: indentation * SwiftCode.indentWidth) + content + "\n"
        }
    }

    /// `header {`, the body one level deeper, `}`.
    mutating func block(_ header: String, _ body: (inout SwiftCode) -> Void) {
        line(header + " {")
        indentation += 1
        body(&self)
        indentation -= 1
        line("}")
    }

    /// `switch subject {`, the cases at the switch's own level (Swift's usual layout), `}`.
    mutating func switchBlock(_ subject: String, _ cases: (inout SwiftCode) -> Void) {
        line("switch \(subject) {")
        cases(&self)
        line("}")
    }

    /// Appends already-indented text (a runtime file) as it is.
    mutating func raw(_ content: String) {
        text += content
        if !content.hasSuffix("\n") { text += "\n" }
    }
}
