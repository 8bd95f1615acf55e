import GatehouseConfig
import GatehouseHTTP
import Testing
@testable import GatehouseCore

/// The GraphQL multipart request rules, one row per upload: its parts in order, and the answer.
@Suite struct UploadManifestTests {
    struct Part: Sendable {
        let name: String
        let data: String
        var filename: String?
    }

    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let parts: [Part]
        /// nil: accepted; otherwise the status of the refusal.
        let status: Int?
        var testDescription: String { name }
    }

    static let operations = Part(name: "operations",
                                 data: #"{"query":"mutation($f: Upload!, $g: Upload) { upload(file: $f) }","variables":{"f":null,"g":null,"n":1}}"#)
    static let batch = Part(name: "operations", data: #"[{"query":"mutation($f: Upload!) { a(file: $f) }","variables":{"f":null}},{"query":"{ b }"}]"#)
    static func map(_ json: String) -> Part { Part(name: "map", data: json) }
    static func file(_ name: String, bytes: Int = 5) -> Part { Part(name: name, data: String(repeating: "x", count: bytes), filename: "f.txt") }
    static let limits = UploadsConfig(maxFiles: 2, maxFileSize: 16)

    static let rows: [Row] = [
        Row(name: "one file", parts: [operations, map(#"{"0":["variables.f"]}"#), file("0")], status: nil),
        Row(name: "two files, one used twice", parts: [operations, map(#"{"a":["variables.f","variables.g"],"b":["variables.g"]}"#),
                                                       file("a"), file("b")], status: nil),
        Row(name: "a batch: paths start with the operation's index", parts: [batch, map(#"{"0":["0.variables.f"]}"#), file("0")],
            status: nil),
        Row(name: "map path to a variable that is not null: 400", parts: [operations, map(#"{"0":["variables.n"]}"#)], status: 400),
        Row(name: "map path to a missing variable: 400", parts: [operations, map(#"{"0":["variables.x"]}"#)], status: 400),
        Row(name: "map path past the end of a batch: 400", parts: [batch, map(#"{"0":["2.variables.f"]}"#)], status: 400),
        Row(name: "operations neither object nor batch: 400", parts: [Part(name: "operations", data: "1"), map("{}")], status: 400),
        Row(name: "file at max_file_size", parts: [operations, map(#"{"0":["variables.f"]}"#), file("0", bytes: 16)], status: nil),
        Row(name: "file over max_file_size: 413", parts: [operations, map(#"{"0":["variables.f"]}"#), file("0", bytes: 17)], status: 413),
        Row(name: "more files than max_files: 413", parts: [operations, map(#"{"0":["variables.f"],"1":["variables.g"],"2":["variables.f"]}"#)],
            status: 413),
        Row(name: "map first: 400", parts: [map(#"{"0":["variables.f"]}"#), operations], status: 400),
        Row(name: "operations not JSON: 400", parts: [Part(name: "operations", data: "{"), map("{}")], status: 400),
        Row(name: "map not an object: 400", parts: [operations, map("[]")], status: 400),
        Row(name: "map with an empty path list: 400", parts: [operations, map(#"{"0":[]}"#)], status: 400),
        Row(name: "map with a duplicate key: 400", parts: [operations, map(#"{"0":["variables.f"],"0":["variables.g"]}"#)], status: 400),
        Row(name: "file the map does not name: 400", parts: [operations, map(#"{"0":["variables.f"]}"#), file("1")], status: 400),
        Row(name: "the same file twice: 400", parts: [operations, map(#"{"0":["variables.f"]}"#), file("0"), file("0")], status: 400),
        Row(name: "a named file missing: 400", parts: [operations, map(#"{"0":["variables.f"],"1":["variables.g"]}"#), file("0")],
            status: 400),
        Row(name: "only operations: 400", parts: [operations], status: 400),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) {
        var manifest = UploadManifest(limits: Self.limits)
        var refusal: GatewayError?
        for part in row.parts where refusal == nil {
            refusal = manifest.partStarted(MultipartPartHeaders(name: part.name, filename: part.filename))
            if refusal == nil {
                refusal = Array(part.data.utf8).withUnsafeBytes { manifest.partData($0) }
            }
            if refusal == nil { refusal = manifest.partEnded() }
        }
        if refusal == nil { refusal = manifest.finished() }
        #expect(refusal.map { ErrorEnvelope.mapping(for: $0.kind).status } == row.status)
    }

    @Test func filesWaitUntilOperationsAndMapAreChecked() {
        var manifest = UploadManifest(limits: Self.limits)
        #expect(manifest.partStarted(MultipartPartHeaders(name: "operations")) == nil)
        #expect(!manifest.isReadyToForward)
        _ = Array(Self.operations.data.utf8).withUnsafeBytes { manifest.partData($0) }
        #expect(manifest.partEnded() == nil)
        #expect(!manifest.isReadyToForward)
        #expect(manifest.partStarted(MultipartPartHeaders(name: "map")) == nil)
        _ = Array(#"{"0":["variables.f"]}"#.utf8).withUnsafeBytes { manifest.partData($0) }
        #expect(manifest.partEnded() == nil)
        #expect(manifest.isReadyToForward)
        #expect(manifest.operations == Array(Self.operations.data.utf8))
    }
}
