import Foundation

/// Certificates made at test time with the `openssl` command line, once per test run: a CA, leaf
/// certificates it signs (valid for localhost and 127.0.0.1, expired, for the wrong name, a client
/// certificate) and a self-signed certificate nobody trusts. All leaves share one EC key.
struct TLSFixtures: Sendable {
    let directory: String
    var caFile: String { path("ca.pem") }
    var keyFile: String { path("leaf.key") }
    var serverCert: String { path("server.pem") }
    var expiredCert: String { path("expired.pem") }
    var wrongNameCert: String { path("wrong-name.pem") }
    var selfSignedCert: String { path("self-signed.pem") }
    var clientCert: String { path("client.pem") }
    /// A key that belongs to no certificate here.
    var otherKeyFile: String { path("other.key") }

    func path(_ name: String) -> String { directory + "/" + name }

    /// Generated on first use; every suite shares the same files.
    static let shared: Result<TLSFixtures, FixtureError> = Result { () throws(FixtureError) in try generate() }

    static func load() throws -> TLSFixtures { try shared.get() }

    struct FixtureError: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: - Generation

    private static func generate() throws(FixtureError) -> TLSFixtures {
        let directory = NSTemporaryDirectory() + "gatehouse-tls-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw FixtureError(description: "cannot create \(directory): \(error)")
        }
        do {
            try writeFiles(in: directory)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        // The files are needed until the last test; remove them when the test process exits.
        atexit {
            if case .success(let fixtures) = TLSFixtures.shared {
                try? FileManager.default.removeItem(atPath: fixtures.directory)
            }
        }
        return TLSFixtures(directory: directory)
    }

    private static func writeFiles(in directory: String) throws(FixtureError) {
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(["req", "-x509"] + ec + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "3650",
                                             "-subj", "/CN=Gatehouse Test CA"], in: directory)
        try openssl(["req", "-x509"] + ec + ["-keyout", "self-signed.key", "-out", "self-signed.pem",
                                             "-days", "30", "-subj", "/CN=localhost",
                                             "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], in: directory)
        try openssl(["req"] + ec + ["-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=localhost"], in: directory)
        try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                     "-out", "other.key"], in: directory)
        try sign("server.pem", days: "30", extensions: "subjectAltName=DNS:localhost,IP:127.0.0.1", in: directory)
        // A validity that ended before it began: OpenSSL 3.0 accepts -days -1, and verification
        // reports it as expired.
        try sign("expired.pem", days: "-1", extensions: "subjectAltName=DNS:localhost,IP:127.0.0.1", in: directory)
        try sign("wrong-name.pem", days: "30", extensions: "subjectAltName=DNS:other.example", in: directory)
        try openssl(["req", "-new", "-key", "leaf.key", "-out", "client.csr",
                     "-subj", "/O=Gatehouse Tests/CN=gatehouse-client"], in: directory)
        try sign("client.pem", csr: "client.csr", days: "30", extensions: "extendedKeyUsage=clientAuth", in: directory)
    }

    private static func sign(_ output: String, csr: String = "leaf.csr", days: String, extensions: String,
                             in directory: String) throws(FixtureError) {
        let extensionFile = output + ".ext"
        guard FileManager.default.createFile(atPath: directory + "/" + extensionFile,
                                             contents: Data((extensions + "\n").utf8)) else {
            throw FixtureError(description: "cannot write \(extensionFile)")
        }
        try openssl(["x509", "-req", "-in", csr, "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                     "-days", days, "-extfile", extensionFile, "-out", output], in: directory)
    }

    private static func openssl(_ arguments: [String], in directory: String) throws(FixtureError) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw FixtureError(description: "cannot run openssl: \(error)")
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureError(description: "openssl \(arguments.joined(separator: " ")) failed: \(text)")
        }
    }
}
