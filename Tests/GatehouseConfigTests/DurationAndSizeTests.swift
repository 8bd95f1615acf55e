import Testing
@testable import GatehouseConfig

@Suite struct DurationAndSizeTests {
    @Test(arguments: [
        ("250ms", Duration.milliseconds(250)),
        ("10s", .seconds(10)),
        ("1m30s", .seconds(90)),
        ("2h", .seconds(7200)),
        ("0", .zero),
        ("0s", .zero),
        ("1h30m15s500ms", .milliseconds(5_415_500)),
        ("90m", .seconds(5400)),
        ("1500ms", .milliseconds(1500)),
    ])
    func durations(_ text: String, _ expected: Duration) {
        #expect(DurationSyntax.parse(text) == .success(expected))
    }

    @Test(arguments: [
        ("10", "duration \"10\" needs a unit, e.g. 10s or 10ms"),
        ("1.5s", "invalid duration \"1.5s\"; write e.g. 250ms, 10s, 1m30s or 2h"),
        ("", "invalid duration \"\"; write e.g. 250ms, 10s, 1m30s or 2h"),
        ("s", "invalid duration \"s\"; write e.g. 250ms, 10s, 1m30s or 2h"),
        ("10x", "invalid duration \"10x\"; write e.g. 250ms, 10s, 1m30s or 2h"),
        ("30s1m", "invalid duration \"30s1m\"; write e.g. 250ms, 10s, 1m30s or 2h"),
        ("1m1m", "invalid duration \"1m1m\"; write e.g. 250ms, 10s, 1m30s or 2h"),
        ("-1s", "invalid duration \"-1s\"; write e.g. 250ms, 10s, 1m30s or 2h"),
        ("10 s", "invalid duration \"10 s\"; write e.g. 250ms, 10s, 1m30s or 2h"),
        ("1d", "invalid duration \"1d\"; write e.g. 250ms, 10s, 1m30s or 2h"),
        ("10S", "invalid duration \"10S\"; write e.g. 250ms, 10s, 1m30s or 2h"),
        ("9000h", "duration \"9000h\" is longer than a year"),
        ("99999999999999h", "invalid duration \"99999999999999h\"; write e.g. 250ms, 10s, 1m30s or 2h"),
    ])
    func invalidDurations(_ text: String, _ message: String) {
        #expect(DurationSyntax.parse(text) == .failure(ValueProblem(message)))
    }

    @Test(arguments: [
        ("0", 0),
        ("65536", 65536),
        ("16KiB", 16384),
        ("10MiB", 10_485_760),
        ("1GiB", 1_073_741_824),
        ("8KiB", 8192),
    ])
    func sizes(_ text: String, _ expected: Int) {
        #expect(SizeSyntax.parse(text) == .success(expected))
    }

    @Test(arguments: [
        ("10MB", "size \"10MB\": use bytes or the binary units KiB, MiB, GiB (e.g. 10MiB)"),
        ("16kb", "size \"16kb\": use bytes or the binary units KiB, MiB, GiB (e.g. 16KiB)"),
        ("1G", "size \"1G\": use bytes or the binary units KiB, MiB, GiB (e.g. 1GiB)"),
        ("4kib", "size \"4kib\": use bytes or the binary units KiB, MiB, GiB (e.g. 4KiB)"),
        ("1.5MiB", "invalid size \"1.5MiB\"; write bytes (e.g. 65536) or 16KiB, 10MiB, 1GiB"),
        ("", "invalid size \"\"; write bytes (e.g. 65536) or 16KiB, 10MiB, 1GiB"),
        ("KiB", "invalid size \"KiB\"; write bytes (e.g. 65536) or 16KiB, 10MiB, 1GiB"),
        ("-1", "invalid size \"-1\"; write bytes (e.g. 65536) or 16KiB, 10MiB, 1GiB"),
        ("16 KiB", "invalid size \"16 KiB\"; write bytes (e.g. 65536) or 16KiB, 10MiB, 1GiB"),
        ("1TiB", "invalid size \"1TiB\"; write bytes (e.g. 65536) or 16KiB, 10MiB, 1GiB"),
        ("999999999999999999GiB", "invalid size \"999999999999999999GiB\"; write bytes (e.g. 65536) or 16KiB, 10MiB, 1GiB"),
    ])
    func invalidSizes(_ text: String, _ message: String) {
        #expect(SizeSyntax.parse(text) == .failure(ValueProblem(message)))
    }

    @Test func sizeAcceptsAPlainYAMLInteger() {
        let config = ConfigTestSupport.config(ConfigTestSupport.withServer("{max_body_bytes: 1048576, max_request_line: 4KiB}"))
        #expect(config?.server.maxBodyBytes == 1_048_576)
        #expect(config?.server.maxRequestLine == 4096)
    }
}
