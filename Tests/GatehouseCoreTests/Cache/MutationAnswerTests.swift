import Testing
@testable import GatehouseCore

/// Which mutation answers drop the entries `cache.invalidate` lists: all but a failure that
/// changed nothing (top-level `errors`, no `data`).
struct MutationAnswerTests {
    @Test(arguments: [
        (#"{"data":{"createMovie":{"key":"m1"}}}"#, true),
        (#"{"data":{"createMovie":null},"errors":[{"message":"partly"}]}"#, true),
        (#"{"errors":[{"message":"Cannot query field"}]}"#, false),
        (#"{"data":null,"errors":[{"message":"not allowed"}]}"#, false),
        ("not json", true),
        (#"{"errors":"#, true),
    ] as [(String, Bool)])
    func outcome(body: String, mayHaveChanged: Bool) {
        #expect(MutationAnswer.mayHaveChangedData(Array(body.utf8)) == mayHaveChanged)
    }

    @Test func aBodyPastTheBoundCountsAsASuccess() {
        var answer = MutationAnswer()
        let failed = Array(#"{"data":null,"errors":[{"message":"x"}]}"#.utf8)
        failed.withUnsafeBytes { answer.append($0) }
        #expect(!answer.mayHaveChangedData)
        let filler = [UInt8](repeating: 0x20, count: MutationAnswer.limit)
        filler.withUnsafeBytes { answer.append($0) }
        #expect(answer.mayHaveChangedData)
    }
}
