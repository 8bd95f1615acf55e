// libFuzzer entry for the YAML config loader (README, "Configuration"): no file may crash it; every refusal
// names at least one issue.
import GatehouseConfig

private let environment = ["APP_TOKEN": "token", "EMPTY": ""]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if case .failure(let errors) = ConfigLoader.load(yaml: text, environment: environment) {
        precondition(!errors.issues.isEmpty, "a refused config with no issue")
    }
    return 0
}
