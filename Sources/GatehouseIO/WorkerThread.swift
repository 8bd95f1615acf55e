import CLinux
import Glibc

/// Starts an OS thread running `body` (event loops own their thread for their whole life).
public enum WorkerThread {
    private final class Box {
        let name: String
        let body: () -> Void
        init(name: String, body: @escaping () -> Void) {
            self.name = name
            self.body = body
        }
    }

    @discardableResult
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> pthread_t {
        let box = Unmanaged.passRetained(Box(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            _ = gh_set_thread_name(String(box.name.prefix(15)))
            box.body()
            return nil
        }, box)
        precondition(result == 0, "pthread_create failed")
        return thread
    }

    public static func join(_ thread: pthread_t) {
        _ = pthread_join(thread, nil)
    }

    /// For a thread nobody will join (one still running at exit, or one that lives as long as
    /// the process): its resources are released when it ends.
    public static func detach(_ thread: pthread_t) {
        _ = pthread_detach(thread)
    }
}
