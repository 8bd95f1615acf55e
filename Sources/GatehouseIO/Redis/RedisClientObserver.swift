/// Told what happens to a client, on the client's loop thread: for metrics and logs, which live
/// above GatehouseIO.
public protocol RedisClientObserver: AnyObject {
    /// The client was marked down (`reason` says why) or came up again (`reason` is nil).
    func redisClient(_ client: RedisClient, isUp: Bool, reason: String?)
    /// A command (or the connection, `op` "connect") failed.
    func redisClient(_ client: RedisClient, failed op: String, reason: String)
    /// A command was answered after `latencyNanos`.
    func redisClient(_ client: RedisClient, answered op: String, latencyNanos: UInt64)
}
