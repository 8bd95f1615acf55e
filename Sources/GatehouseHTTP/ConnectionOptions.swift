/// Reads the comma-separated token list of a `Connection` header (RFC 9110 §7.6.1).
struct ConnectionOptions {
    /// Every listed token other than `close` and `keep-alive`, trimmed: the header fields the
    /// sender declared hop-by-hop. (`close` names no field and `Keep-Alive` is hop-by-hop by
    /// definition, so the usual `Connection: keep-alive` costs no allocation.)
    var tokens: [Range<Int>] = []
    var close = false
    var keepAlive = false

    /// Adds the tokens of one `Connection` value; false when an element is not a token.
    /// Empty list elements (`a, , b`) are skipped as RFC 9110 §5.6.1 asks.
    mutating func add(_ buffer: UnsafeRawBufferPointer, _ value: Range<Int>) -> Bool {
        // The usual values, told whole: no list to split, no token to check byte by byte.
        let whole = UnsafeRawBufferPointer(rebasing: buffer[value])
        if HeaderNames.asciiCaseInsensitiveEquals(whole, HeaderNames.keepAlive) {
            keepAlive = true
            return true
        }
        if HeaderNames.asciiCaseInsensitiveEquals(whole, "close") {
            close = true
            return true
        }
        var elementStart = value.lowerBound
        var index = value.lowerBound
        while index <= value.upperBound {
            if index == value.upperBound || buffer[index] == ASCII.comma {
                let element = HeaderLineParser.trimmedRange(buffer, from: elementStart, to: index)
                if !element.isEmpty {
                    guard record(buffer, element) else { return false }
                }
                elementStart = index + 1
            }
            index += 1
        }
        return true
    }

    private mutating func record(_ buffer: UnsafeRawBufferPointer, _ element: Range<Int>) -> Bool {
        for index in element where !ASCII.isTokenByte(buffer[index]) { return false }
        let token = UnsafeRawBufferPointer(rebasing: buffer[element])
        if HeaderNames.asciiCaseInsensitiveEquals(token, "close") {
            close = true
        } else if HeaderNames.asciiCaseInsensitiveEquals(token, HeaderNames.keepAlive) {
            keepAlive = true
        } else {
            tokens.append(element)
        }
        return true
    }
}
