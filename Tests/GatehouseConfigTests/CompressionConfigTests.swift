import Testing
@testable import GatehouseConfig

/// `server.compression:` — gzip for client responses and the inflate limit for upstream bodies.
@Suite struct CompressionConfigTests {
    // MARK: - Defaults

    @Test func defaults() {
        let compression = CompressionConfig()
        #expect(compression.enabled)
        #expect(compression.level == 1)
        #expect(compression.minSize == 1024)
        #expect(compression.types == [
            "application/json", "application/graphql-response+json", "text/plain", "text/html", "text/css",
            "application/javascript",
        ])
        #expect(compression.maxInflatedSize == 1_048_576)
    }

    @Test(arguments: [ConfigTestSupport.minimalYAML, ConfigTestSupport.withServer("{compression: }"),
                      ConfigTestSupport.withServer("{compression: {}}")])
    func absentOrEmptyTakesTheDefaults(_ yaml: String) {
        #expect(ConfigTestSupport.config(yaml)?.server.compression == CompressionConfig())
    }

    // MARK: - Accepted

    @Test func everyKeyRoundTrips() {
        let yaml = ConfigTestSupport.withServer("""
            {compression: {enabled: false, level: 9, min_size: 0, max_inflated_size: 4MiB,
                           types: [application/json, application/vnd.api+json, image/svg+xml]}}
            """)
        var expected = CompressionConfig()
        expected.enabled = false
        expected.level = 9
        expected.minSize = 0
        expected.types = ["application/json", "application/vnd.api+json", "image/svg+xml"]
        expected.maxInflatedSize = 4 << 20
        #expect(ConfigTestSupport.config(yaml)?.server.compression == expected)
    }

    static let oneKeyCases: [(String, CompressionConfig)] = [
        ("{level: 6}", defaults { $0.level = 6 }),
        ("{level: \"${GZIP_LEVEL}\"}", defaults { $0.level = 5 }),
        ("{min_size: 256}", defaults { $0.minSize = 256 }),
        ("{min_size: 2KiB}", defaults { $0.minSize = 2048 }),
        ("{max_inflated_size: 1}", defaults { $0.maxInflatedSize = 1 }),
        ("{max_inflated_size: 1GiB}", defaults { $0.maxInflatedSize = 1 << 30 }),
        ("{enabled: false}", defaults { $0.enabled = false }),
        ("{types: [application/json]}", defaults { $0.types = ["application/json"] }),
    ]

    @Test(arguments: oneKeyCases)
    func oneKey(_ compression: String, _ expected: CompressionConfig) {
        let yaml = ConfigTestSupport.withServer("{compression: \(compression)}")
        #expect(ConfigTestSupport.config(yaml, environment: ["GZIP_LEVEL": "5"])?.server.compression == expected)
    }

    /// The defaults with one change.
    private static func defaults(_ change: (inout CompressionConfig) -> Void) -> CompressionConfig {
        var compression = CompressionConfig()
        change(&compression)
        return compression
    }

    // MARK: - Refused

    static let cases: [BadConfigCase] = [
        BadConfigCase("enabled yes", compression("{enabled: yes}"),
                      "server.compression.enabled: expected true or false, got \"yes\""),
        BadConfigCase("enabled quoted", compression("{enabled: \"true\"}"),
                      "server.compression.enabled: expected true or false, got the quoted string \"true\""),
        BadConfigCase("level 0", compression("{level: 0}"), "server.compression.level: must be between 1 and 9"),
        BadConfigCase("level 10", compression("{level: 10}"), "server.compression.level: must be between 1 and 9"),
        BadConfigCase("level by name", compression("{level: best}"),
                      "server.compression.level: expected an integer, got \"best\""),
        BadConfigCase("level fraction", compression("{level: 1.5}"),
                      "server.compression.level: expected an integer, got \"1.5\""),
        BadConfigCase("min_size negative", compression("{min_size: -1}"),
                      "server.compression.min_size: invalid size \"-1\"; write bytes (e.g. 65536) or 16KiB, 10MiB, 1GiB"),
        BadConfigCase("min_size decimal unit", compression("{min_size: 1KB}"),
                      "server.compression.min_size: size \"1KB\": use bytes or the binary units KiB, MiB, GiB (e.g. 1KiB)"),
        BadConfigCase("max_inflated_size zero", compression("{max_inflated_size: 0}"),
                      "server.compression.max_inflated_size: must be at least 1 bytes"),
        BadConfigCase("max_inflated_size null", compression("{max_inflated_size: null}"),
                      "server.compression.max_inflated_size: expected a size such as 16KiB, got null"),
        BadConfigCase("types empty", compression("{types: []}"),
                      "server.compression.types: list at least one media type, or set enabled: false"),
        BadConfigCase("types not a list", compression("{types: application/json}"),
                      "server.compression.types: expected a list, got a string"),
        BadConfigCase("any type", compression("{types: [\"*/*\"]}"),
                      "server.compression.types[0]: \"*/*\" is a wildcard; list each media type, e.g. text/plain"),
        BadConfigCase("any text type", compression("{types: [application/json, \"text/*\"]}"),
                      "server.compression.types[1]: \"text/*\" is a wildcard; list each media type, e.g. text/plain"),
        BadConfigCase("wildcard type", compression("{types: [\"*/json\"]}"),
                      "server.compression.types[0]: \"*/json\" is a wildcard; list each media type, e.g. text/plain"),
        BadConfigCase("uppercase", compression("{types: [Application/JSON]}"),
                      "server.compression.types[0]: media types are listed in lowercase; write \"application/json\""),
        BadConfigCase("parameters", compression("{types: [\"text/html; charset=utf-8\"]}"),
                      "server.compression.types[0]: \"text/html; charset=utf-8\" has parameters; list the media type alone, e.g. text/html"),
        BadConfigCase("no subtype", compression("{types: [json]}"),
                      "server.compression.types[0]: \"json\" is not a media type such as application/json"),
        BadConfigCase("empty subtype", compression("{types: [text/]}"),
                      "server.compression.types[0]: \"text/\" is not a media type such as application/json"),
        BadConfigCase("two slashes", compression("{types: [text/html/x]}"),
                      "server.compression.types[0]: \"text/html/x\" is not a media type such as application/json"),
        BadConfigCase("inner space", compression("{types: [\"text /html\"]}"),
                      "server.compression.types[0]: \"text /html\" is not a media type such as application/json"),
        BadConfigCase("empty type", compression("{types: [\"\"]}"),
                      "server.compression.types[0]: must not be empty"),
        BadConfigCase("listed twice", compression("{types: [text/plain, text/css, text/plain]}"),
                      "server.compression.types[2]: \"text/plain\" is listed twice"),
        BadConfigCase("misspelt key", compression("{minsize: 1KiB}"), "server.compression.minsize: unknown key"),
        BadConfigCase("compression: false", compression("false"),
                      "server.compression: expected a mapping, got a boolean"),
        BadConfigCase("every problem at once", compression("{enabled: on, level: 0, types: [TEXT/PLAIN], gzip: true}"),
                      "server.compression.enabled: expected true or false, got \"on\"",
                      "server.compression.level: must be between 1 and 9",
                      "server.compression.types[0]: media types are listed in lowercase; write \"text/plain\"",
                      "server.compression.gzip: unknown key"),
    ]

    @Test(arguments: cases)
    func refused(_ badCase: BadConfigCase) {
        #expect(ConfigTestSupport.issueLines(badCase.yaml, environment: badCase.environment) == badCase.expected)
    }

    private static func compression(_ block: String) -> String {
        ConfigTestSupport.withServer("{compression: \(block)}")
    }
}
