/// The request methods the gateway distinguishes; anything else is `.other` and its bytes stay in
/// `RequestHead.method`.
public enum HTTPMethod: Sendable, Equatable {
    case get
    case head
    case post
    case put
    case delete
    case options
    case patch
    case other

    /// Classifies method bytes. Methods are case-sensitive (RFC 9110 §9.1): `get` is `.other`.
    static func classify(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) -> HTTPMethod {
        @inline(__always) func byte(_ offset: Int) -> UInt8 { buffer[range.lowerBound + offset] }
        switch range.count {
        case 3:
            if byte(0) == 0x47, byte(1) == 0x45, byte(2) == 0x54 { return .get }      // GET
            if byte(0) == 0x50, byte(1) == 0x55, byte(2) == 0x54 { return .put }      // PUT
        case 4:
            if byte(0) == 0x50, byte(1) == 0x4F, byte(2) == 0x53, byte(3) == 0x54 { return .post }  // POST
            if byte(0) == 0x48, byte(1) == 0x45, byte(2) == 0x41, byte(3) == 0x44 { return .head }  // HEAD
        case 5:
            if Self.matches(buffer, range, "PATCH") { return .patch }
        case 6:
            if Self.matches(buffer, range, "DELETE") { return .delete }
        case 7:
            if Self.matches(buffer, range, "OPTIONS") { return .options }
        default:
            break
        }
        return .other
    }

    private static func matches(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>, _ name: StaticString) -> Bool {
        name.withUTF8Buffer { expected in
            var index = 0
            while index < expected.count {
                if buffer[range.lowerBound + index] != expected[index] { return false }
                index += 1
            }
            return true
        }
    }
}
