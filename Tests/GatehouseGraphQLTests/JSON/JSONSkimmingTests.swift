import Testing
@testable import GatehouseGraphQL

/// `objectHasTopLevelKey` checks what the full parse checks, without building the document: for
/// every row it agrees with parsing and looking the key up.
@Suite("JSON skimming: a top-level key without building the document")
struct JSONSkimmingTests {
    static let documents: [String] = [
        #"{"data":{"movies":[]}}"#,
        #"{"data":null,"errors":[{"message":"x"}]}"#,
        #"{"errors":[]}"#,
        #"{"data":{"errors":1}}"#,
        #"{"\u0065rrors":[]}"#,
        #"{"err\"ors":1}"#,
        #"{"errorsX":1,"Errors":2}"#,
        #"{}"#,
        #"  { "a" : [1, -2.5e+3, true, false, null, "s\n\u00e9\ud83d\ude00"] }  "#,
        #"[{"errors":1}]"#,
        #""errors""#,
        #"12"#,
        #"{"a":1,}"#,
        #"{"a":01}"#,
        #"{"a":"\ud800"}"#,
        "{\"a\":\"tab\tinside\"}",
        #"{"a":1} x"#,
        #"{"a":[1,2}"#,
        #"{"a":tru}"#,
        #"{"a":1.}"#,
        "{\"a\":\"\u{FF}\"}",
        #""#,
        #"{"a":{"b":{"c":{}}}}"#,
    ]

    @Test(arguments: documents)
    func agreesWithTheFullParse(_ text: String) {
        let bytes = Array(text.utf8)
        let expected: Bool? = (try? JSONReader.parse(bytes))?.objectValue.map { $0["errors"] != nil }
        #expect(JSONReader.objectHasTopLevelKey(bytes, "errors") == expected, "\(text)")
    }

    @Test func invalidUTF8IsRefusedLikeTheParser() {
        let bytes: [UInt8] = Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        let expected: Bool? = (try? JSONReader.parse(bytes))?.objectValue.map { $0["errors"] != nil }
        #expect(JSONReader.objectHasTopLevelKey(bytes, "errors") == expected)
    }

    @Test func depthIsLimitedAsInTheParser() {
        let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        let bytes = Array(("{\"a\":" + deep + "}").utf8)
        #expect((try? JSONReader.parse(bytes)) == nil)
        #expect(JSONReader.objectHasTopLevelKey(bytes, "errors") == nil)
    }

    // MARK: - The fast path

    /// The full skim's answer, never the fast path's.
    static func fullSkim(_ bytes: [UInt8]) -> (isObject: Bool, hasKey: Bool)? {
        bytes.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw, maxDepth: 64, rejectDuplicateKeys: false)
            return try? parser.skimDocument(topLevelKey: Array("errors".utf8))
        }
    }

    static func fastSkim(_ bytes: [UInt8], maxDepth: Int = 64) -> (isObject: Bool, hasKey: Bool)? {
        bytes.withUnsafeBytes { JSONFastSkim.skim($0, topLevelKey: Array("errors".utf8), maxDepth: maxDepth) }
    }

    @Test(arguments: documents)
    func theFastPathAnswersOnlyWhatTheFullSkimAnswers(_ text: String) {
        let bytes = Array(text.utf8)
        if let fast = Self.fastSkim(bytes) {
            let full = Self.fullSkim(bytes)
            #expect(full?.isObject == fast.isObject && full?.hasKey == fast.hasKey, "\(text)")
        }
    }

    /// What GraphQL servers send decides in the fast path; escapes and non-ASCII go to the full one.
    @Test func plainDocumentsAreDecidedByTheFastPath() {
        let plain = [#"{"data":{"movies":[{"title":"Heat","year":1995,"rating":-7.5e-1,"seen":true,"x":null}]}}"#,
                     #" {"errors" : [ {"message":"no"} ] , "data":false } "#, #"[]"#, #"{}"#, #"0"#]
        for text in plain { #expect(Self.fastSkim(Array(text.utf8)) != nil, "\(text)") }
        for text in [#"{"a":"\n"}"#, "{\"a\":\"é\"}", #"{"a":01}"#, #"{"a":1,}"#] {
            #expect(Self.fastSkim(Array(text.utf8)) == nil, "\(text)")
        }
        // Past 64 open containers (its bits) the fast path gives up, even where a deeper limit allows them.
        let deep = Array((String(repeating: "[", count: 65) + String(repeating: "]", count: 65)).utf8)
        #expect(Self.fastSkim(deep, maxDepth: 100) == nil)
        #expect(Self.fastSkim(Array(deep.dropFirst().dropLast()), maxDepth: 100) != nil)
        let nested = Array(#"{"a":"#.utf8) + deep + Array("}".utf8)
        #expect(JSONReader.objectHasTopLevelKey(nested, "errors", maxDepth: 100) == false)
    }

    /// Random documents, most of them broken near a valid one: wherever the fast path answers,
    /// the full skim answers the same.
    @Test func theFastPathAgreesOnRandomDocuments() {
        let pieces = ["{", "}", "[", "]", ",", ":", " ", "\"errors\"", "\"a\"", "\"", "\\", "0", "1", "-", ".", "e",
                      "+", "true", "fals", "null", "\n", "\u{01}", "x", "01", "1.5", "\"data\":", "é"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        var decided = 0
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<(1 + next(14)) { text += pieces[next(pieces.count)] }
            let bytes = Array(text.utf8)
            guard let fast = Self.fastSkim(bytes) else { continue }
            decided += 1
            let full = Self.fullSkim(bytes)
            #expect(full?.isObject == fast.isObject && full?.hasKey == fast.hasKey, "\(text)")
        }
        #expect(decided > 100)
    }

    /// A plain string's run is read eight bytes at a time: whatever byte ends it, wherever it
    /// stands and whatever follows, the run ends there.
    @Test func aPlainRunEndsAtItsFirstStopByte() {
        let stops: [UInt8] = [0x22, 0x5C, 0x00, 0x1F, 0x0A, 0x80, 0xC3, 0xFF]
        let fillers: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x41, 0x7E]
        for position in 0..<8 {
            for stop in stops {
                for filler in fillers {
                    for after in stops + fillers {
                        var bytes = [UInt8](repeating: filler, count: 8)
                        bytes[position] = stop
                        if position < 7 { bytes[position + 1] = after }
                        let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                        let marks = JSONFastSkim.Walk.stops(in: word)
                        #expect(marks.trailingZeroBitCount / 8 == position, "\(bytes)")
                    }
                }
            }
        }
        let plain = [UInt8](repeating: 0x61, count: 8)
        #expect(JSONFastSkim.Walk.stops(in: plain.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }) == 0)
    }
}
