import Foundation
import GatehouseGraphQL
@testable import GatehouseDemo

enum DemoTestSupport {
    static let secret = "demo-secret-0123456789abcdef-0123456789"
    /// A fixed clock for the login tokens: 2026-01-01T00:00:00Z.
    static let now = 1_767_225_600

    static let repositoryRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func backend(serviceToken: String? = "svc") -> DemoBackend {
        DemoBackend(tokenSecret: secret, serviceToken: serviceToken, clock: { now })
    }

    static func executor() -> DemoExecutor {
        DemoExecutor(resolvers: DemoRootResolvers(movies: DemoMovieStore(), tokenSecret: secret, clock: { now }))
    }

    /// The one request in `raw`, read as the server reads it.
    static func request(_ raw: String) -> DemoRequest? {
        var reader = DemoRequestReader()
        let bytes = Array(raw.utf8)
        guard case .request(let request, _) = bytes.withUnsafeBytes({ reader.read($0) }) else { return nil }
        return request
    }

    static func post(_ path: String, _ body: String, headers: [(String, String)] = [("X-Service-Token", "svc")]) -> String {
        let fields = headers.map { "\($0.0): \($0.1)\r\n" }.joined()
        return "POST \(path) HTTP/1.1\r\nHost: x\r\n\(fields)Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    static func file(_ relativePath: String) throws -> String {
        try String(contentsOfFile: repositoryRoot + "/" + relativePath, encoding: .utf8)
    }
}
