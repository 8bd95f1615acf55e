import Testing
@testable import GatehouseConfig

/// `server.tls:` — TLS termination on the client listener.
@Suite struct ServerTLSConfigTests {
    static let file = ConfigTestSupport.plainFilePath
    static let otherFile = ConfigTestSupport.jwksPath

    // MARK: - Accepted

    @Test func absentMeansPlainHTTP() {
        #expect(ConfigTestSupport.config(ConfigTestSupport.minimalYAML)?.server.tls == nil)
    }

    @Test(arguments: [
        ("{cert_file: \"\(file)\", key_file: \"\(otherFile)\"}",
         ServerTLSConfig(certFile: file, keyFile: otherFile)),
        ("{cert_file: \"\(file)\", key_file: \"\(file)\"}",
         ServerTLSConfig(certFile: file, keyFile: file)),
        ("{cert_file: \"\(file)\", key_file: \"\(otherFile)\", client_ca_file: \"\(otherFile)\"}",
         ServerTLSConfig(certFile: file, keyFile: otherFile, clientCAFile: otherFile)),
    ])
    func accepted(_ tls: String, _ expected: ServerTLSConfig) {
        #expect(ConfigTestSupport.config(ConfigTestSupport.withServer("{tls: \(tls)}"))?.server.tls == expected)
    }

    @Test func filesComeFromTheEnvironment() {
        let yaml = ConfigTestSupport.withServer("{tls: {cert_file: \"${TLS_CERT}\", key_file: \"${TLS_KEY}\"}}")
        let config = ConfigTestSupport.config(yaml, environment: ["TLS_CERT": Self.file, "TLS_KEY": Self.otherFile])
        #expect(config?.server.tls == ServerTLSConfig(certFile: Self.file, keyFile: Self.otherFile))
    }

    @Test func relativePathsAreTakenFromTheWorkingDirectory() throws {
        let yaml = ConfigTestSupport.withServer("{tls: {cert_file: config/jwks.json, key_file: config/jwks.json}}")
        let config = try ConfigTestSupport.load(yaml, baseDirectory: ConfigTestSupport.repositoryRoot).get()
        #expect(config.server.tls == ServerTLSConfig(certFile: "config/jwks.json", keyFile: "config/jwks.json"))
    }

    // MARK: - Refused

    static let cases: [BadConfigCase] = [
        BadConfigCase("empty tls block", ConfigTestSupport.withServer("{tls: {}}"),
                      "server.tls.cert_file: required; the PEM certificate chain the listener presents",
                      "server.tls.key_file: required; the PEM private key of cert_file"),
        BadConfigCase("tls with nothing after it", ConfigTestSupport.withServer("{tls: }"),
                      "server.tls.cert_file: required; the PEM certificate chain the listener presents",
                      "server.tls.key_file: required; the PEM private key of cert_file"),
        BadConfigCase("key missing", ConfigTestSupport.withServer("{tls: {cert_file: \"\(file)\"}}"),
                      "server.tls.key_file: required; the PEM private key of cert_file"),
        BadConfigCase("certificate missing", ConfigTestSupport.withServer("{tls: {key_file: \"\(file)\"}}"),
                      "server.tls.cert_file: required; the PEM certificate chain the listener presents"),
        BadConfigCase("certificate not found",
                      ConfigTestSupport.withServer("{tls: {cert_file: /nonexistent/server.crt, key_file: \"\(file)\"}}"),
                      "server.tls.cert_file: cannot read \"/nonexistent/server.crt\": No such file or directory"),
        BadConfigCase("key is a directory",
                      ConfigTestSupport.withServer("{tls: {cert_file: \"\(file)\", key_file: \"\(ConfigTestSupport.directoryPath)\"}}"),
                      "server.tls.key_file: \"\(ConfigTestSupport.directoryPath)\" is a directory, not a file"),
        BadConfigCase("client CA not found",
                      ConfigTestSupport.withServer("{tls: {cert_file: \"\(file)\", key_file: \"\(file)\", client_ca_file: /nonexistent/ca.pem}}"),
                      "server.tls.client_ca_file: cannot read \"/nonexistent/ca.pem\": No such file or directory"),
        BadConfigCase("client CA empty",
                      ConfigTestSupport.withServer("{tls: {cert_file: \"\(file)\", key_file: \"\(file)\", client_ca_file: \"\"}}"),
                      "server.tls.client_ca_file: must not be empty"),
        BadConfigCase("client CA null",
                      ConfigTestSupport.withServer("{tls: {cert_file: \"\(file)\", key_file: \"\(file)\", client_ca_file: null}}"),
                      "server.tls.client_ca_file: expected a string, got null"),
        BadConfigCase("certificate is a boolean", ConfigTestSupport.withServer("{tls: {cert_file: true, key_file: \"\(file)\"}}"),
                      "server.tls.cert_file: expected a string, got a boolean"),
        BadConfigCase("key from an unset variable",
                      ConfigTestSupport.withServer("{tls: {cert_file: \"\(file)\", key_file: \"${TLS_KEY}\"}}"),
                      "server.tls.key_file: environment variable TLS_KEY is not set"),
        BadConfigCase("upstream key name", ConfigTestSupport.withServer("{tls: {cert_file: \"\(file)\", key_file: \"\(file)\", ca_file: \"\(file)\"}}"),
                      "server.tls.ca_file: unknown key"),
        BadConfigCase("tls: true", ConfigTestSupport.withServer("{tls: true}"),
                      "server.tls: expected a mapping, got a boolean"),
        BadConfigCase("tls as a list", ConfigTestSupport.withServer("{tls: [\"\(file)\"]}"),
                      "server.tls: expected a mapping, got a list"),
    ]

    @Test(arguments: cases)
    func refused(_ badCase: BadConfigCase) {
        #expect(ConfigTestSupport.issueLines(badCase.yaml, environment: badCase.environment) == badCase.expected)
    }
}
