import CLinux
import GatehouseIO

/// Requests of one worker waiting for a key refetch that their token's unknown `kid` started
/// (or found running): each resumes when the fetch ends, success or not, and its authentication
/// runs again without waiting a second time. Touched only on the worker's loop; the key thread
/// reaches it through `loop.post`.
final class KeyWaitList: @unchecked Sendable {
    private struct Wait {
        let source: ObjectIdentifier
        let answer: PendingAnswer
        let retry: () -> PhaseResult
    }

    let loop: EventLoop
    private var waits: [Wait] = []

    init(loop: EventLoop) { self.loop = loop }

    /// Parks a request until `source`'s fetch in progress ends, when there is one (nil: none is
    /// running or due, so the caller refuses at once); `retry` gives its verdict then.
    func wait(for source: RemoteKeySource, retry: @escaping () -> PhaseResult) -> PendingAnswer? {
        guard source.notifyWhenRefetched(self, now: gh_monotonic_ns()) else { return nil }
        let answer = PendingAnswer()
        waits.append(Wait(source: ObjectIdentifier(source), answer: answer, retry: retry))
        answer.onCancel = { [unowned self, unowned answer] in waits.removeAll { $0.answer === answer } }
        return answer
    }

    /// On the loop: `source`'s fetch ended.
    func fetchEnded(_ source: ObjectIdentifier) {
        let ready = waits.filter { $0.source == source }
        waits.removeAll { $0.source == source }
        for wait in ready { wait.answer.complete(wait.retry()) }
    }
}
