import Foundation
import GatehouseCore

/// `gatehouse demo`: the gateway on 127.0.0.1:PORT in front of the built-in demo backend.
enum Demo {
    static let backendPort = 9399
    static let adminPort = 9901

    static func run(port: Int) -> Int32 {
        // Before the backend starts its threads, which would otherwise inherit unblocked
        // signals and let SIGTERM kill the process instead of draining it.
        Serve.blockSignals()
        let secret = ProcessInfo.processInfo.environment["GATEHOUSE_DEMO_SECRET"] ?? "demo-secret-change-me-0123456789abcdef"
        let serviceToken = "demo-service-token"
        let backend = DemoBackend(port: backendPort, tokenSecret: secret, serviceToken: serviceToken)
        do {
            try backend.start()
        } catch {
            ErrorLog.error("demo backend on 127.0.0.1:\(backendPort): \(error)")
            return 1
        }
        let yaml = DemoBackend.demoConfigYAML(gatewayPort: port, backendPort: backendPort, adminPort: adminPort,
                                              secret: secret, serviceToken: serviceToken)
        switch ConfigLoading.load(yaml: yaml) {
        case .failure(let errors):
            ErrorLog.error("demo configuration:\n\(errors)")
            return 1
        case .success(let snapshot):
            let now = Int(Date().timeIntervalSince1970)
            let token = JWTMinter.hs256(secret: secret, claims: [
                ("sub", .string("demo-user")), ("iat", .number(String(now))), ("exp", .number(String(now + 3600))),
            ])
            return Serve.serve(snapshot, onStarted: {
                print(DemoBackend.curlWalkthrough(gatewayPort: port, token: token))
                fflush(nil)
            }, reload: { ConfigLoading.load(yaml: yaml) })
        }
    }
}
