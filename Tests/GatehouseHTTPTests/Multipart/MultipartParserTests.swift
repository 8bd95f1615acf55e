import Testing
@testable import GatehouseHTTP

/// One row of the multipart contract: a body, the parts a relay must see.
struct MultipartCase: Sendable, CustomTestStringConvertible {
    let name: String
    let body: String
    let parts: [MultipartOutcome.Part]
    let ending: MultipartOutcome.Ending

    var testDescription: String { name }
}

private let boundary = "----gh7MA4YWxkTrZu0gW"

private func part(_ name: String, _ data: String, filename: String? = nil, type: String? = nil) -> MultipartOutcome.Part {
    .init(headers: .init(name: name, filename: filename, contentType: type), data: Array(data.utf8), ended: true)
}

private func body(_ parts: [(headers: String, data: String)], close: Bool = true, preamble: String = "") -> String {
    var text = preamble
    for (index, item) in parts.enumerated() {
        text += (index == 0 && preamble.isEmpty ? "" : "\r\n") + "--\(boundary)\r\n" + item.headers + "\r\n\r\n" + item.data
    }
    if close { text += "\r\n--\(boundary)--\r\n" }
    return text
}

private let operations = #"{"query":"mutation($file: Upload!) { upload(file: $file) }","variables":{"file":null}}"#
private let map = #"{"0":["variables.file"]}"#

@Suite("multipart/form-data (RFC 7578), streamed")
struct MultipartParserTests {
    static let cases: [MultipartCase] = [
        MultipartCase(name: "GraphQL multipart request", body: body([
            ("Content-Disposition: form-data; name=\"operations\"", operations),
            ("Content-Disposition: form-data; name=\"map\"", map),
            ("Content-Disposition: form-data; name=\"0\"; filename=\"a.txt\"\r\nContent-Type: text/plain", "file\r\n--body"),
        ]), parts: [part("operations", operations), part("map", map), part("0", "file\r\n--body", filename: "a.txt", type: "text/plain")],
        ending: .end),
        MultipartCase(name: "preamble ignored", body: body([("Content-Disposition: form-data; name=\"a\"", "x")], preamble: "ignore me"),
                      parts: [part("a", "x")], ending: .end),
        MultipartCase(name: "empty part data", body: body([("Content-Disposition: form-data; name=\"a\"", "")]),
                      parts: [part("a", "")], ending: .end),
        MultipartCase(name: "data with a near-boundary", body: body([("Content-Disposition: form-data; name=\"a\"", "\r\n--\(boundary.dropLast())x")]),
                      parts: [part("a", "\r\n--\(boundary.dropLast())x")], ending: .end),
        MultipartCase(name: "CRs in data", body: body([("Content-Disposition: form-data; name=\"a\"", "\r\r\r\n\r\n-")]),
                      parts: [part("a", "\r\r\r\n\r\n-")], ending: .end),
        MultipartCase(name: "unquoted name, padding after the boundary", body: "--\(boundary)  \r\nContent-Disposition: form-data; name=a\r\n\r\nv\r\n--\(boundary)--",
                      parts: [part("a", "v")], ending: .end),
        MultipartCase(name: "epilogue ignored", body: body([("Content-Disposition: form-data; name=\"a\"", "v")]) + "trailing junk",
                      parts: [part("a", "v")], ending: .end),
        MultipartCase(name: "no close delimiter yet", body: body([("Content-Disposition: form-data; name=\"a\"", "v")], close: false),
                      parts: [.init(headers: .init(name: "a"), data: Array("v".utf8), ended: false)], ending: .needMore),
        MultipartCase(name: "part without Content-Disposition", body: body([("Content-Type: text/plain", "v")]), parts: [], ending: .invalid),
        MultipartCase(name: "attachment disposition", body: body([("Content-Disposition: attachment; name=\"a\"", "v")]), parts: [], ending: .invalid),
        MultipartCase(name: "two Content-Disposition fields",
                      body: body([("Content-Disposition: form-data; name=\"a\"\r\nContent-Disposition: form-data; name=\"b\"", "v")]),
                      parts: [], ending: .invalid),
        MultipartCase(name: "name given twice", body: body([("Content-Disposition: form-data; name=\"a\"; name=\"b\"", "v")]),
                      parts: [], ending: .invalid),
        MultipartCase(name: "two Content-Type fields",
                      body: body([("Content-Disposition: form-data; name=\"a\"\r\nContent-Type: a/b\r\nContent-Type: c/d", "v")]),
                      parts: [], ending: .invalid),
        MultipartCase(name: "garbage after the boundary", body: "--\(boundary)x\r\n", parts: [], ending: .invalid),
        MultipartCase(name: "header section too large",
                      body: "--\(boundary)\r\nContent-Disposition: form-data; name=\"a\"\r\nX: " + String(repeating: "y", count: 9000) + "\r\n\r\n",
                      parts: [], ending: .invalid),
    ]

    @Test(arguments: cases)
    func verdict(_ row: MultipartCase) {
        let input = Array(row.body.utf8)
        let outcomes = Split.all.map { parseMultipart(input, boundary: boundary, split: $0) }
        for outcome in outcomes {
            #expect(outcome.parts == row.parts)
            #expect(outcome.ending == row.ending)
        }
    }

    @Test func heldBackTailStaysUnderOneDelimiter() {
        let big = String(repeating: "0123456789abcdef\r\n-", count: 800)
        let input = Array(body([("Content-Disposition: form-data; name=\"0\"; filename=\"f\"", big)]).utf8)
        for split in Split.all {
            let outcome = parseMultipart(input, boundary: boundary, split: split)
            #expect(outcome.parts.first?.data == Array(big.utf8))
            #expect(outcome.mostHeldBack <= MultipartParser.defaultMaxHeaderBytes)
        }
        // Data pieces never wait for more than a possible delimiter.
        let outcome = parseMultipart(input, boundary: boundary, split: .random(seed: 3))
        #expect(outcome.ending == .end)
    }

    @Test(arguments: [
        ("multipart/form-data; boundary=abc", "abc"),
        ("Multipart/Form-Data; charset=utf-8; boundary=\"a b:c\"", "a b:c"),
        ("multipart/form-data;boundary=----x", "----x"),
    ])
    func boundaryFromContentType(_ contentType: String, _ expected: String) {
        #expect(MultipartBoundary.formData(Array(contentType.utf8)) == Array(expected.utf8))
    }

    @Test(arguments: ["multipart/form-data", "multipart/mixed; boundary=x", "application/json",
                      "multipart/form-data; boundary=" + String(repeating: "x", count: 71), "multipart/form-data; boundary=\"\"",
                      // Parsers disagree on which of two counts, and on what follows a malformed parameter.
                      "multipart/form-data; boundary=a; boundary=b", "multipart/form-data; BOUNDARY=a; boundary=b",
                      "multipart/form-data; boundary=\"a\";boundary=b", "multipart/form-data; boundary=a; junk",
                      "multipart/form-data; boundary=a b"])
    func noBoundary(_ contentType: String) {
        #expect(MultipartBoundary.formData(Array(contentType.utf8)) == nil)
    }

    @Test func multipartIsRecognisedByItsTopLevelType() {
        #expect(MultipartBoundary.isMultipart(Array("Multipart/Mixed".utf8)))
        #expect(!MultipartBoundary.isMultipart(Array("application/json".utf8)))
    }
}
