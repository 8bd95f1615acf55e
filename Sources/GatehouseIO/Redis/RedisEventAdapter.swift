import CHiredis
import CLinux

/// hiredis's event-library hooks on top of an `EventLoop`, as `hiredis/adapters/ae.h` does for
/// Redis's own `ae`: hiredis says when it wants to read or write (`ev.addRead`, `delRead`,
/// `addWrite`, `delWrite`) and when its context goes away (`ev.cleanup`); the client turns that
/// into epoll interest and calls `redisAsyncHandleRead/Write` when the fd is ready.
///
/// One link per hiredis context. `ev.data` holds one retain of the link, given back in `cleanup`
/// (hiredis calls it once, just before freeing the context); `redisAsyncContext.data` points to
/// the same link, unretained, for the reply callbacks, which always run before `cleanup`.
final class RedisContextLink {
    let context: UnsafeMutablePointer<redisAsyncContext>
    weak var client: RedisClient?
    /// The client let go of this context (it timed out or was closed); anything hiredis still
    /// reports for it is ignored.
    var isDetached = false
    /// hiredis has freed the context (after `cleanup`); it must not be freed again.
    var isFreed = false
    /// The replies the connection is owed (`gh_redis_reply_guard`): a reply no command asked for
    /// drops the connection instead of tripping hiredis's assertion. Read by the context's
    /// reader, which lives no longer than this link (the context holds it until `cleanup`).
    let replyGuard = UnsafeMutablePointer<gh_redis_reply_guard>.allocate(capacity: 1)

    init(context: UnsafeMutablePointer<redisAsyncContext>, client: RedisClient) {
        self.context = context
        self.client = client
        gh_redis_reply_guard_install(context.pointee.c.reader, replyGuard)
    }

    deinit { replyGuard.deallocate() }

    /// A command went into hiredis's queue: one more reply is owed.
    func commandQueued() { replyGuard.pointee.owed += 1 }

    var fd: Int32 { context.pointee.c.fd }

    /// hiredis's error text for the context, or `fallback` when it has none.
    func errorText(or fallback: String) -> String {
        // The reader's own words for a refused reply would be "Out of memory".
        if replyGuard.pointee.tripped != 0 { return Self.unaskedReply }
        guard context.pointee.err != 0, let text = context.pointee.errstr else { return fallback }
        return String(cString: text)
    }

    /// Installs the hooks and the link on `context`.
    func attach() {
        let data = Unmanaged.passRetained(self).toOpaque()
        context.pointee.data = data
        context.pointee.ev.data = data
        context.pointee.ev.addRead = { data in RedisContextLink.live(data)?.hook(.addRead) }
        context.pointee.ev.delRead = { data in RedisContextLink.live(data)?.hook(.delRead) }
        context.pointee.ev.addWrite = { data in RedisContextLink.live(data)?.hook(.addWrite) }
        context.pointee.ev.delWrite = { data in RedisContextLink.live(data)?.hook(.delWrite) }
        context.pointee.ev.cleanup = { data in
            guard let data else { return }
            let link = Unmanaged<RedisContextLink>.fromOpaque(data).takeRetainedValue()
            link.isFreed = true
            link.context.pointee.data = nil
            if !link.isDetached { link.client?.contextFreed(link) }
        }
        _ = redisAsyncSetConnectCallback(context) { context, status in
            guard let link = RedisContextLink.live(context?.pointee.data) else { return }
            link.client?.connectFinished(link, succeeded: status == REDIS_OK)
        }
    }

    static let unaskedReply = "the store sent a reply no command asked for"

    enum Hook {
        case addRead, delRead, addWrite, delWrite
    }

    private func hook(_ hook: Hook) { client?.hiredisHook(hook, link: self) }

    /// The link behind a hook's or callback's pointer, unless the client has let go of it.
    static func live(_ data: UnsafeMutableRawPointer?) -> RedisContextLink? {
        guard let data else { return nil }
        let link = Unmanaged<RedisContextLink>.fromOpaque(data).takeUnretainedValue()
        return link.isDetached ? nil : link
    }
}

/// The reply callback of every command (hiredis's `redisCallbackFn`): `privdata` carries the
/// command's id; `reply` is nil when hiredis is tearing the context down.
func redisReplyArrived(_ context: UnsafeMutablePointer<redisAsyncContext>?, _ reply: UnsafeMutableRawPointer?,
                       _ privdata: UnsafeMutableRawPointer?) {
    guard let link = RedisContextLink.live(context?.pointee.data) else { return }
    let id = UInt64(UInt(bitPattern: privdata))
    link.client?.replyArrived(id: id, reply: reply.map { UnsafePointer($0.assumingMemoryBound(to: redisReply.self)) },
                              link: link)
}
