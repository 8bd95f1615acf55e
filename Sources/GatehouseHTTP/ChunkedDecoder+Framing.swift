/// The byte-level state machine behind `ChunkedDecoder.decode`: size lines with extensions, the
/// CRLF after each chunk's data, and the trailer section.
extension ChunkedDecoder {
    /// Advances over one framing byte; returns the reason when it is not allowed here.
    @inline(__always)
    mutating func step(_ byte: UInt8) -> String? {
        switch state {
        case .sizeStart, .size:
            return sizeByte(byte)
        case .afterSize, .extensionNameStart, .extensionName, .afterExtensionName, .extensionValueStart,
             .extensionToken, .extensionQuoted, .extensionQuotedEscape, .extensionQuotedEnd, .afterExtensionValue:
            // The extensions span from the byte after the size up to, not including, the CR.
            if byte != ASCII.cr {
                extensionBytes += 1
                guard extensionBytes <= Self.maxExtensionBytes else { return "A chunk extension is too long." }
            }
            return extensionByte(byte)
        case .sizeLineLF:
            guard byte == ASCII.lf else { return "A chunk size line must end with CRLF." }
            if remaining == 0 {
                state = .trailerLineStart
            } else {
                state = .data
            }
        case .dataCR:
            guard byte == ASCII.cr else { return "Chunk data must be followed by CRLF." }
            state = .dataLF
        case .dataLF:
            guard byte == ASCII.lf else { return "Chunk data must be followed by CRLF." }
            remaining = 0
            sizeDigits = 0
            state = .sizeStart
        case .trailerLineStart, .trailerName, .trailerValue, .trailerLineLF, .finalLF:
            trailerBytes += 1
            guard trailerBytes <= Self.maxTrailerBytes else { return "The chunked trailer section is too large." }
            return trailerByte(byte)
        case .data, .finished:
            return nil
        case .failed:
            return "The chunked body is malformed."
        }
        return nil
    }

    // MARK: - Size line

    private mutating func sizeByte(_ byte: UInt8) -> String? {
        if let digit = ASCII.hexValue(byte) {
            sizeDigits += 1
            guard sizeDigits <= Self.maxSizeDigits else { return "A chunk size is too large." }
            remaining = remaining << 4 | Int(digit)
            state = .size
            return nil
        }
        guard case .size = state else { return "A chunk size must start with a hex digit." }
        switch byte {
        case ASCII.cr:
            state = .sizeLineLF
        case ASCII.semicolon:
            beginExtensions(next: .extensionNameStart)
        case ASCII.space, ASCII.tab:
            beginExtensions(next: .afterSize)
        default:
            return "A chunk size contains an invalid character."
        }
        return nil
    }

    private mutating func beginExtensions(next: State) {
        extensionBytes = 1
        state = next
    }

    // MARK: - Chunk extensions

    /// `*( BWS ";" BWS name [ BWS "=" BWS ( token / quoted-string ) ] )` (RFC 9112 §7.1.1).
    /// Whitespace is only allowed before `;` or `=` and after them, never before the CR.
    private mutating func extensionByte(_ byte: UInt8) -> String? {
        let invalid = "A chunk extension is malformed."
        switch state {
        case .afterSize, .afterExtensionValue:
            if ASCII.isWhitespace(byte) { return nil }
            guard byte == ASCII.semicolon else { return invalid }
            state = .extensionNameStart
        case .afterExtensionName:
            if ASCII.isWhitespace(byte) { return nil }
            switch byte {
            case ASCII.semicolon: state = .extensionNameStart
            case ASCII.equals: state = .extensionValueStart
            default: return invalid
            }
        case .extensionNameStart:
            if ASCII.isWhitespace(byte) { return nil }
            guard ASCII.isTokenByte(byte) else { return invalid }
            state = .extensionName
        case .extensionName:
            if ASCII.isTokenByte(byte) { return nil }
            return endOfItem(byte, whitespaceState: .afterExtensionName, allowEquals: true) ? nil : invalid
        case .extensionValueStart:
            if ASCII.isWhitespace(byte) { return nil }
            if byte == ASCII.quote { state = .extensionQuoted; return nil }
            guard ASCII.isTokenByte(byte) else { return invalid }
            state = .extensionToken
        case .extensionToken:
            if ASCII.isTokenByte(byte) { return nil }
            return endOfItem(byte, whitespaceState: .afterExtensionValue, allowEquals: false) ? nil : invalid
        case .extensionQuoted:
            switch byte {
            case ASCII.quote: state = .extensionQuotedEnd
            case ASCII.backslash: state = .extensionQuotedEscape
            default: guard ASCII.isLineByte(byte) else { return invalid }
            }
        case .extensionQuotedEscape:
            guard ASCII.isLineByte(byte) else { return invalid }
            state = .extensionQuoted
        case .extensionQuotedEnd:
            return endOfItem(byte, whitespaceState: .afterExtensionValue, allowEquals: false) ? nil : invalid
        default:
            return invalid
        }
        return nil
    }

    /// The byte right after a name or value: whitespace, `;`, `=` (after a name) or the CR.
    private mutating func endOfItem(_ byte: UInt8, whitespaceState: State, allowEquals: Bool) -> Bool {
        switch byte {
        case ASCII.space, ASCII.tab: state = whitespaceState
        case ASCII.semicolon: state = .extensionNameStart
        case ASCII.cr: state = .sizeLineLF
        case ASCII.equals where allowEquals: state = .extensionValueStart
        default: return false
        }
        return true
    }

    // MARK: - Trailer section

    /// Trailer fields use header syntax (no obs-fold, no whitespace before the colon); their
    /// content is ignored.
    private mutating func trailerByte(_ byte: UInt8) -> String? {
        switch state {
        case .trailerLineStart:
            if byte == ASCII.cr { state = .finalLF; return nil }
            guard ASCII.isTokenByte(byte) else { return "A chunked trailer field is malformed." }
            state = .trailerName
        case .trailerName:
            if ASCII.isTokenByte(byte) { return nil }
            guard byte == ASCII.colon else { return "A chunked trailer field is malformed." }
            state = .trailerValue
        case .trailerValue:
            if ASCII.isLineByte(byte) { return nil }
            guard byte == ASCII.cr else { return "A chunked trailer field contains a control character." }
            state = .trailerLineLF
        case .trailerLineLF:
            guard byte == ASCII.lf else { return "A chunked trailer line must end with CRLF." }
            state = .trailerLineStart
        case .finalLF:
            guard byte == ASCII.lf else { return "The chunked body must end with CRLF." }
            state = .finished
        default:
            return "The chunked body is malformed."
        }
        return nil
    }
}
