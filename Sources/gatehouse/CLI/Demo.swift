import GatehouseIO
import Glibc
import GatehouseConfig
import GatehouseCore
import GatehouseDemo

/// `gatehouse demo`: the gateway configured by `config/demo.yaml` in front of the built-in demo
/// backend, which listens where that file's `demo` upstream points.
enum Demo {
    static let defaultConfigPath = "config/demo.yaml"
    /// `--port N` reaches the file as this variable: `listen: "127.0.0.1:${GATEHOUSE_DEMO_PORT:-8080}"`.
    static let portVariable = "GATEHOUSE_DEMO_PORT"
    /// How long the token printed with the walkthrough stays valid.
    static let walkthroughTokenSeconds = 3600

    static func run(port: Int?, configPath: String) -> Int32 {
        // Before the backend starts its thread, which would otherwise inherit unblocked
        // signals and let SIGTERM kill the process instead of draining it.
        Serve.blockSignals()
        var environment = FileSystem.environment
        if let port { environment[portVariable] = String(port) }
        let load = { ConfigLoading.load(path: configPath, environment: environment) }

        let snapshot: GatewaySnapshot
        switch load() {
        case .success(let loaded): snapshot = loaded
        case .failure(let errors):
            for issue in errors.issues { ErrorLog.error("\(configPath): \(issue)") }
            return 1
        }
        let settings: DemoSettings
        switch DemoSettings.from(snapshot.config) {
        case .success(let found): settings = found
        case .failure(let issue):
            ErrorLog.error("\(configPath): \(issue)")
            return 1
        }

        let backend = DemoBackend(tokenSecret: settings.tokenSecret, serviceToken: settings.serviceToken,
                                  aemConfig: settings.aemConfig)
        let server = DemoServer(backend: backend, host: settings.backendHost, port: settings.backendPort)
        do {
            try server.start()
        } catch {
            ErrorLog.error("demo backend: \(error)")
            return 1
        }
        defer { server.stop() }
        let now = DemoBackend.unixSeconds()
        let token = JWTMinter.hs256(secret: settings.tokenSecret, claims: [
            ("sub", .string("demo-user")), ("iat", .number(String(now))),
            ("exp", .number(String(now + walkthroughTokenSeconds))),
        ])
        let gatewayPort = snapshot.config.server.listen.port
        return Serve.serve(snapshot, onStarted: {
            print(DemoWalkthrough.curlCommands(gatewayPort: gatewayPort, token: token))
            fflush(nil)
        }, reload: load)
    }
}
