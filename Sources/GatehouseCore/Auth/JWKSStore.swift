import GatehouseIO
import Synchronization

/// The JWK Set of one provider, re-read when its file changes. Request threads call
/// `currentKeys(now:)`; at most one of them per second stats the file (an atomic compare-exchange
/// elects it), and only a changed file is read and parsed. The set in use is swapped under a
/// mutex held just long enough to copy a reference; a broken new file keeps the old keys.
final class JWKSStore: Sendable {
    let path: String

    private struct Loaded: Sendable {
        var keySet: JWKSet
        var stamp: KeyFile.Stamp
        var lastProblem: String?
    }

    private let loaded: Locked<Loaded>
    private let lastCheckedSecond: Atomic<Int64>
    /// How many times a changed file was taken: tokens verified under an earlier count are
    /// verified again (`VerifiedTokenCache`), so a key removed from the file stops its tokens at once.
    private let reloads = Atomic<Int>(0)

    /// Loads the file once; a missing or broken file is a configuration error.
    init(path: String, loadedAt now: Int64) throws(JWKSetError) {
        self.path = path
        let bytes: [UInt8]
        let stamp: KeyFile.Stamp
        switch KeyFile.readWithStamp(path: path, maxBytes: JWKSet.maxFileBytes) {
        case .success(let read): (bytes, stamp) = read
        case .failure(let failure): throw JWKSetError([failure.message])
        }
        let keySet = try JWKSet(json: bytes)
        loaded = Locked(Loaded(keySet: keySet, stamp: stamp, lastProblem: nil))
        lastCheckedSecond = Atomic(now)
    }

    // MARK: - Hot path

    /// The keys to verify with at `now` (unix seconds).
    func currentKeys(now: Int64) -> JWKSet {
        checkFile(now: now)
        return loaded.withLock { $0.keySet }
    }

    /// The key set's generation at `now`, the file checked first (at most once a second): asked
    /// on every token, the cached ones too, which would otherwise never look at the file.
    @inline(__always)
    func generation(now: Int64) -> Int {
        checkFile(now: now)
        return reloads.load(ordering: .acquiring)
    }

    @inline(__always)
    private func checkFile(now: Int64) {
        let last = lastCheckedSecond.load(ordering: .relaxed)
        if last != now,
           lastCheckedSecond.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged {
            reloadIfChanged()
        }
    }

    /// The keys in use, without checking the file.
    var keys: JWKSet {
        loaded.withLock { $0.keySet }
    }

    // MARK: - Reload

    /// Why the last attempt to re-read the file failed, while the previous keys stay in use.
    var lastProblem: String? {
        loaded.withLock { $0.lastProblem }
    }

    private func reloadIfChanged() {
        guard let stamp = KeyFile.stamp(path: path) else {
            loaded.withLock { $0.lastProblem = "cannot stat \"\(path)\"; keeping the previous keys" }
            return
        }
        guard stamp != loaded.withLock({ $0.stamp }) else { return }
        switch KeyFile.readWithStamp(path: path, maxBytes: JWKSet.maxFileBytes) {
        case .success(let read):
            do {
                let keySet = try JWKSet(json: read.bytes)
                loaded.withLock { $0 = Loaded(keySet: keySet, stamp: read.stamp, lastProblem: nil) }
                reloads.add(1, ordering: .releasing)
            } catch {
                // The stamp is not advanced, so the next second tries again (a writer may be mid-way).
                loaded.withLock { $0.lastProblem = "\(error.description); keeping the previous keys" }
            }
        case .failure(let failure):
            loaded.withLock { $0.lastProblem = "\(failure.message); keeping the previous keys" }
        }
    }
}
