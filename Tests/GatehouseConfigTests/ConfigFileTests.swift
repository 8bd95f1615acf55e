import Foundation
import Testing
@testable import GatehouseConfig

/// Loading from a path: unreadable files are one issue with an empty key path.
@Suite struct ConfigFileTests {
    @Test func missingFile() {
        let result = ConfigLoader.load(path: "/nonexistent/gatehouse.yaml", environment: [:])
        #expect(issues(result) == ["cannot read config file \"/nonexistent/gatehouse.yaml\": No such file or directory"])
    }

    @Test func directoryInsteadOfFile() {
        let result = ConfigLoader.load(path: ConfigTestSupport.directoryPath, environment: [:])
        #expect(issues(result) == ["cannot read config file \"\(ConfigTestSupport.directoryPath)\": Is a directory"])
    }

    @Test func fileLoadsWithItsSourcePath() throws {
        let path = NSTemporaryDirectory() + "gatehouse-config-test-\(UUID().uuidString).yaml"
        try ConfigTestSupport.minimalYAML.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let config = try ConfigLoader.load(path: path, environment: [:]).get()
        #expect(config.sourcePath == path)
        #expect(config.routes.count == 1)
    }

    @Test func nonUTF8File() throws {
        let path = NSTemporaryDirectory() + "gatehouse-config-test-\(UUID().uuidString).yaml"
        try Data([0x61, 0x3A, 0x20, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(issues(ConfigLoader.load(path: path, environment: [:])) == ["cannot read config file \"\(path)\": not UTF-8 text"])
    }

    @Test func relativePathsAreCheckedFromTheBaseDirectory() {
        let yaml = "operations: {dir: config/operations}\n" + ConfigTestSupport.minimalYAML
        let fromRoot = ConfigTestSupport.load(yaml, baseDirectory: ConfigTestSupport.repositoryRoot)
        #expect((try? fromRoot.get())?.operations == OperationsConfig(dir: "config/operations"))
        let fromElsewhere = ConfigTestSupport.load(yaml, baseDirectory: "/nonexistent")
        #expect(issues(fromElsewhere) == ["operations.dir: cannot read \"config/operations\": No such file or directory"])
    }

    private func issues(_ result: Result<GatewayConfig, ConfigErrors>) -> [String] {
        guard case .failure(let errors) = result else { return [] }
        return errors.issues.map(\.description)
    }
}
