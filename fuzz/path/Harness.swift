// libFuzzer entry for PathValidator: no input may crash it, and no path it accepts may hold
// anything another hop could normalize into a different path: no `.`/`..` segment before or
// after decoding percent-escapes once, no `//`, no backslash, no control byte, no escaped `;` or
// `%` (a second decoding), and no character that Unicode folding turns into a separator.
import GatehouseCore

private func hex(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 48...57: return byte - 48
    case 65...70: return byte - 55
    case 97...102: return byte - 87
    default: return nil
    }
}

private func decodedOnce(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    var output: [UInt8] = []
    var i = 0
    while i < bytes.count {
        if bytes[i] == 37, i + 2 < bytes.count, let high = hex(bytes[i + 1]), let low = hex(bytes[i + 2]) {
            output.append(high << 4 | low)
            i += 3
        } else {
            output.append(bytes[i])
            i += 1
        }
    }
    return output
}

private func assertNoHiddenSegments(_ path: [UInt8], _ form: String) {
    let segments = path.split(separator: 47, omittingEmptySubsequences: false).dropFirst()
    for (index, segment) in segments.enumerated() {
        precondition(segment != [46] && segment != [46, 46], "accepted a dot segment (\(form))")
        precondition(!segment.isEmpty || index == segments.count - 1, "accepted an empty segment (\(form))")
    }
    precondition(!path.contains(92), "accepted a backslash (\(form))")
    precondition(!path.contains(where: { $0 < 0x20 || $0 == 0x7F }), "accepted a control byte (\(form))")
}

/// A few of the characters whose NFKC or best-fit form is `.`, `..`, `/` or `\`: an oracle
/// independent of the validator's own table.
private let foldingSeparators: Set<Unicode.Scalar> = [
    "\u{FF0E}", "\u{FF0F}", "\u{FF3C}", "\u{FE52}", "\u{FE68}", "\u{2024}", "\u{2025}", "\u{2026}",
    "\u{2215}", "\u{2044}", "\u{2105}", "\u{3002}", "\u{FF61}",
]

private func assertNoSecondDecoding(_ sent: UnsafeRawBufferPointer, _ decoded: [UInt8]) {
    let raw = sent.filter { $0 == 59 }.count
    precondition(decoded.filter { $0 == 59 }.count == raw, "accepted an escaped ;")
    precondition(!decoded.contains(37), "accepted an escaped % (double encoding)")
    if let text = String(validating: decoded, as: UTF8.self) {
        precondition(!text.unicodeScalars.contains(where: foldingSeparators.contains),
                     "accepted a character that folds into a separator")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard PathValidator.problem(in: bytes) == nil else { return 0 }
    assertNoHiddenSegments(Array(bytes), "as sent")
    let decoded = decodedOnce(bytes)
    assertNoHiddenSegments(decoded, "decoded once")
    assertNoSecondDecoding(bytes, decoded)
    return 0
}
