import CLinux
import GatehouseIO
import Glibc
import GatehouseConfig
import GatehouseCore

/// `gatehouse run`: serve until SIGTERM/SIGINT (drain) while SIGHUP reloads the file.
enum Serve {
    static func run(configPath: String) -> Int32 {
        switch ConfigLoading.load(path: configPath) {
        case .failure(let errors):
            for issue in errors.issues { ErrorLog.error("\(configPath): \(issue)") }
            return 1
        case .success(let snapshot):
            return serve(snapshot) { ConfigLoading.load(path: configPath) }
        }
    }

    /// Signals the gateway handles itself, blocked in every thread so only the signalfd sees them.
    static let handledSignals = [SIGTERM, SIGINT, SIGHUP, 0]

    static func blockSignals() {
        _ = handledSignals.withUnsafeBufferPointer { gh_block_signals($0.baseAddress) }
    }

    /// Starts the gateway and handles signals on this thread until it has drained.
    static func serve(_ snapshot: GatewaySnapshot, onStarted: () -> Void = {},
                      reload: () -> Result<GatewaySnapshot, ConfigErrors>) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        // Blocked before any thread starts, so that only this thread's signalfd sees them.
        let signalFD = handledSignals.withUnsafeBufferPointer { gh_signalfd($0.baseAddress) }
        guard signalFD >= 0 else {
            ErrorLog.error("signalfd failed")
            return 1
        }
        let gateway = Gateway(snapshot: snapshot)
        do {
            try gateway.start()
        } catch {
            ErrorLog.error(error.description)
            return 1
        }
        let server = snapshot.config.server
        ErrorLog.info("listening on \(server.listen)" + (server.adminListen.map { ", admin on \($0)" } ?? ""))
        warnAboutConfig(snapshot)
        onStarted()
        var drainTimeout = server.drainTimeout
        while true {
            let signal = gh_signalfd_read(signalFD)
            switch signal {
            case SIGHUP:
                switch reload() {
                case .success(let newer):
                    if newer.config.server.listen != snapshot.config.server.listen {
                        ErrorLog.warn("server.listen changed; it takes effect after a restart")
                    }
                    drainTimeout = newer.config.server.drainTimeout
                    gateway.reload(newer)
                    warnAboutConfig(newer)
                    ErrorLog.info("configuration reloaded")
                case .failure(let errors):
                    ErrorLog.error("reload refused, the old configuration stays:\n" + errors.description)
                }
            case SIGTERM, SIGINT:
                ErrorLog.info("draining (up to \(drainTimeout))")
                gateway.drain(timeout: drainTimeout)
                ErrorLog.info("stopped")
                return 0
            default:
                continue
            }
        }
    }

    private static func warnAboutConfig(_ snapshot: GatewaySnapshot) {
        for upstream in snapshot.config.upstreams where upstream.tls?.verify == false {
            ErrorLog.warn("upstreams.\(upstream.name).tls.verify is false: certificates are not checked")
        }
    }
}
