// libFuzzer entry for PathValidator (SPEC §3.2): no input may crash it, and no path it accepts
// may hold anything another hop could normalize into a different path: no `.`/`..` segment
// before or after decoding percent-escapes once, no `//`, no backslash, no control byte.
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

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard PathValidator.problem(in: bytes) == nil else { return 0 }
    assertNoHiddenSegments(Array(bytes), "as sent")
    assertNoHiddenSegments(decodedOnce(bytes), "decoded once")
    return 0
}
