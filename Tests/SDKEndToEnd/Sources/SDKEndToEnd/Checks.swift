/// Counts passed, failed and skipped checks and prints one line for each.
final class Checks: @unchecked Sendable {
    private(set) var passed = 0
    private(set) var failed = 0
    private(set) var skipped = 0

    func expect(_ condition: Bool, _ what: String) {
        if condition {
            passed += 1
            print("ok    \(what)")
        } else {
            failed += 1
            print("FAIL  \(what)")
        }
    }

    /// Runs `body`; a thrown error fails the check.
    func run(_ what: String, _ body: () async throws -> Bool) async {
        do {
            expect(try await body(), what)
        } catch {
            failed += 1
            print("FAIL  \(what): \(error)")
        }
    }

    /// Runs `body`, which must throw; `accept` judges the error.
    func expectError<Failure: Error>(_ what: String, as type: Failure.Type, _ body: () async throws -> Void,
                                     accept: (Failure) -> Bool) async {
        do {
            try await body()
            expect(false, what + " (no error)")
        } catch let error as Failure {
            expect(accept(error), what + " (\(error))")
        } catch {
            expect(false, what + " (\(error))")
        }
    }

    func skip(_ what: String, reason: String) {
        skipped += 1
        print("skip  \(what): \(reason)")
    }
}
