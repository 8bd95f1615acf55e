import GatehouseConfig
import Testing
@testable import GatehouseCore

/// An upload body fed to `UploadStream` as a socket would deliver it: whole, split in two at every
/// byte, byte by byte and in odd-sized pieces. Every split gives the same decision; the preamble is
/// read exactly once the map part has ended, and what was held then is the body so far.
@Suite struct UploadStreamTests {
    static let boundary = "----gatehouse7MA4YWxk"
    static let limits = UploadsConfig(maxFiles: 2, maxFileSize: 64)
    static let operations = #"{"query":"mutation($f: Upload!) { upload(file: $f) }","variables":{"f":null}}"#

    /// One part: name, data, and a filename for file parts.
    static func part(_ name: String, _ data: String, filename: String? = nil) -> String {
        let disposition = filename.map { "form-data; name=\"\(name)\"; filename=\"\($0)\"" } ?? "form-data; name=\"\(name)\""
        let type = filename == nil ? "" : "Content-Type: application/octet-stream\r\n"
        return "--\(boundary)\r\nContent-Disposition: \(disposition)\r\n\(type)\r\n\(data)\r\n"
    }

    static func body(_ parts: [String], closed: Bool = true) -> [UInt8] {
        Array((parts.joined() + (closed ? "--\(boundary)--\r\n" : "")).utf8)
    }

    static let map = part("map", #"{"0":["variables.f"]}"#)
    /// A file whose bytes look like the start of a delimiter, to be split across pieces.
    static let trickyFile = part("0", "\r\n--\(boundary.dropLast())x\r\n-", filename: "a.bin")

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let body: [UInt8]
        /// nil: accepted whole; otherwise the status of the refusal.
        let status: Int?
        /// Whether the preamble is read (so forwarding starts) before the refusal or the end.
        let preambleRead: Bool
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "one file", body: body([part("operations", operations), map, part("0", "hello", filename: "a.txt")]),
            status: nil, preambleRead: true),
        Row(name: "a file that imitates the delimiter", body: body([part("operations", operations), map, trickyFile]),
            status: nil, preambleRead: true),
        Row(name: "an empty file", body: body([part("operations", operations), map, part("0", "", filename: "e")]),
            status: nil, preambleRead: true),
        Row(name: "file at max_file_size", body: body([part("operations", operations), map,
                                                       part("0", String(repeating: "x", count: 64), filename: "a")]),
            status: nil, preambleRead: true),
        Row(name: "file over max_file_size: 413 after the preamble", body: body([part("operations", operations), map,
                                                                             part("0", String(repeating: "x", count: 65), filename: "a")]),
            status: 413, preambleRead: true),
        Row(name: "too many files: 413 before forwarding",
            body: body([part("operations", #"{"query":"m","variables":{"a":null,"b":null,"c":null}}"#),
                        part("map", #"{"0":["variables.a"],"1":["variables.b"],"2":["variables.c"]}"#)]),
            status: 413, preambleRead: false),
        Row(name: "map not JSON: 400", body: body([part("operations", operations), part("map", "{0:")]),
            status: 400, preambleRead: false),
        Row(name: "map names a missing file: 400 at the end",
            body: body([part("operations", operations), part("map", #"{"0":["variables.f"],"1":["variables.f"]}"#),
                        part("0", "x", filename: "a")]),
            status: 400, preambleRead: true),
        Row(name: "map path not a null variable: 400", body: body([part("operations", operations), part("map", #"{"0":["variables.g"]}"#)]),
            status: 400, preambleRead: false),
        Row(name: "a file the map does not name: 400", body: body([part("operations", operations), map, part("9", "x", filename: "a")]),
            status: 400, preambleRead: true),
        Row(name: "map before operations: 400", body: body([map, part("operations", operations)]),
            status: 400, preambleRead: false),
        Row(name: "no closing boundary: 400 at the end", body: body([part("operations", operations), map, part("0", "x", filename: "a")],
                                                                   closed: false),
            status: 400, preambleRead: true),
        Row(name: "a part without Content-Disposition: 400",
            body: Array("--\(boundary)\r\nContent-Type: text/plain\r\n\r\nx\r\n--\(boundary)--\r\n".utf8),
            status: 400, preambleRead: false),
        Row(name: "operations over the preamble bound: 413",
            body: body([part("operations", #"{"query":""# + String(repeating: " ", count: UploadStream.maxPreambleBytes) + #""}"#)]),
            status: 413, preambleRead: false),
    ]

    struct Outcome: Equatable, CustomStringConvertible {
        var status: Int?
        var preambleRead = false
        var description: String { "status \(status.map(String.init) ?? "none"), preamble read \(preambleRead)" }
    }

    /// Feeds `body` in pieces of the given lengths, as the exchange does; checks what was held.
    static func feed(_ body: [UInt8], pieces: [Int]) -> Outcome {
        let stream = UploadStream(boundary: Array(boundary.utf8), limits: limits)
        var outcome = Outcome()
        var offset = 0
        for length in pieces {
            let last = offset + length == body.count
            let refusal = body[offset..<(offset + length)].withUnsafeBytes { stream.feed($0) } ?? (last ? stream.bodyEnded() : nil)
            offset += length
            if let refusal {
                outcome.status = ErrorEnvelope.mapping(for: refusal.kind).status
                outcome.preambleRead = stream.isPreambleRead
                return outcome
            }
            if stream.isPreambleRead && !outcome.preambleRead {
                outcome.preambleRead = true
                // Held: exactly the body so far, which reaches past the map part's delimiter.
                let held = stream.takeHeldBytes()
                #expect(held == Array(body[0..<offset]))
                #expect(containsMapEnd(held))
            }
        }
        return outcome
    }

    static func containsMapEnd(_ held: [UInt8]) -> Bool {
        let text = String(decoding: held, as: UTF8.self)
        guard let map = text.range(of: "name=\"map\"") else { return false }
        return text[map.upperBound...].contains("\r\n--\(boundary)")
    }

    static func splits(_ count: Int) -> [[Int]] {
        var all: [[Int]] = [[count], Array(repeating: 1, count: count)]
        let odd = 7
        all.append(Array(repeating: odd, count: count / odd) + (count % odd == 0 ? [] : [count % odd]))
        for cut in 1..<count { all.append([cut, count - cut]) }
        return all
    }

    @Test(arguments: rows)
    func row(_ row: Row) {
        let expected = Outcome(status: row.status, preambleRead: row.preambleRead)
        // The preamble-bound row is large: byte by byte and in two at every byte would be slow.
        let splits = row.body.count > UploadStream.maxPreambleBytes ? [[row.body.count], [row.body.count / 2, row.body.count - row.body.count / 2]]
                                                                    : Self.splits(row.body.count)
        for pieces in splits {
            let outcome = Self.feed(row.body, pieces: pieces)
            #expect(outcome == expected, "pieces \(pieces.prefix(3))…")
            if outcome != expected { return }
        }
    }

    @Test func afterThePreambleNothingIsHeld() {
        let stream = UploadStream(boundary: Array(Self.boundary.utf8), limits: UploadsConfig(maxFiles: 1, maxFileSize: 1 << 30))
        let fileHeaders = "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"0\"; filename=\"big\"\r\n\r\n"
        let preamble = Self.body([Self.part("operations", Self.operations), Self.map], closed: false) + Array(fileHeaders.utf8)
        #expect(preamble.withUnsafeBytes { stream.feed($0) } == nil)
        #expect(stream.isPreambleRead)
        #expect(stream.takeHeldBytes().count == preamble.count)
        let fileData = [UInt8](repeating: UInt8(ascii: "y"), count: 256 * 1024)
        #expect(fileData.withUnsafeBytes { stream.feed($0) } == nil)
        #expect(stream.takeHeldBytes().count == 0)
    }
}
