/// Where the response cache keeps its entries in a Redis store, and the two scripts that write
/// them. Under the store's `prefix` and `rc:` (rate limits use `rl:`):
///
/// - `rc:e:<key digest>`: one entry (`RedisCacheEntryCodec`), expiring with its whole lifetime;
/// - `rc:r:<route>` and `rc:o:<operation>`: sets of the digests stored for a route and for an
///   operation, so a purge of either finds its entries on any replica without scanning the
///   keyspace. A set's expiry is raised to its longest member's on every store, so it outlives
///   its entries; members whose entries already expired cost a `DEL` of a missing key, nothing more;
/// - `rc:sets`: the names of those sets, for a purge of everything (`{}`).
///
/// A store is one script (entry, both memberships, expiries: one round trip, atomic); a purge is
/// one script whose work is one `DEL` per member of the sets it drops.
struct RedisCacheKeys: Sendable {
    static let namespace = "rc:"
    let entryPrefix: [UInt8]
    let routeSetPrefix: [UInt8]
    let operationSetPrefix: [UInt8]
    let registry: [UInt8]

    init(storePrefix: String) {
        let base = storePrefix + Self.namespace
        entryPrefix = Array((base + "e:").utf8)
        routeSetPrefix = Array((base + "r:").utf8)
        operationSetPrefix = Array((base + "o:").utf8)
        registry = Array((base + "sets").utf8)
    }

    func entry(_ key: CacheKey) -> [UInt8] { entryPrefix + key.hexDigits }
    func routeSet(_ route: String) -> [UInt8] { routeSetPrefix + Array(route.utf8) }
    func operationSet(_ operation: String) -> [UInt8] { operationSetPrefix + Array(operation.utf8) }

    // MARK: - Commands

    static let storeScript = """
        redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
        local expiry = tonumber(ARGV[2])
        for i = 2, 3 do
          redis.call('SADD', KEYS[i], ARGV[3])
          if redis.call('PTTL', KEYS[i]) < expiry then redis.call('PEXPIRE', KEYS[i], expiry) end
        end
        redis.call('SADD', KEYS[4], KEYS[2], KEYS[3])
        return 1
        """

    static let purgeScript = """
        local sets = {}
        for i = 2, #KEYS do sets[#sets + 1] = KEYS[i] end
        if #sets == 0 then sets = redis.call('SMEMBERS', KEYS[1]) end
        local purged = 0
        for _, set in ipairs(sets) do
          for _, digest in ipairs(redis.call('SMEMBERS', set)) do
            purged = purged + redis.call('DEL', ARGV[1] .. digest)
          end
          redis.call('DEL', set)
          redis.call('SREM', KEYS[1], set)
        end
        return purged
        """

    /// `EVAL` of the store script for `entry` encoded as `value`. Sent with its text each time:
    /// Redis caches it by digest, and a flushed script cache needs no reload dance.
    func storeCommand(_ entry: CacheEntry, value: [UInt8]) -> [[UInt8]] {
        [Array("EVAL".utf8), Array(Self.storeScript.utf8), Array("4".utf8),
         self.entry(entry.key), routeSet(entry.routeLabel), operationSet(entry.operation), registry,
         value, Array(String(RedisCacheEntryCodec.expiryMillis(entry)).utf8), entry.key.hexDigits]
    }

    /// `EVAL` of the purge script over the sets `filter` names (none: every set).
    func purgeCommand(_ filter: CachePurgeFilter) -> [[UInt8]] {
        let sets: [[UInt8]]
        switch filter {
        case .all: sets = []
        case .route(let route): sets = [routeSet(route)]
        case .operations(let names): sets = names.map(operationSet)
        }
        return [Array("EVAL".utf8), Array(Self.purgeScript.utf8), Array(String(1 + sets.count).utf8), registry]
            + sets + [entryPrefix]
    }
}
