import Testing
@testable import GatehouseConfig

@Suite struct YAMLReaderTests {
    private func root(_ text: String) throws -> YAMLNode {
        try #require(try YAMLReader.read(text).get())
    }

    private func firstValue(_ text: String) throws -> YAMLScalar {
        let node = try root(text)
        guard case .mapping(let entries) = node.content, case .scalar(let scalar) = entries.first?.value.content else {
            Issue.record("not a mapping of a scalar: \(text)")
            return YAMLScalar(plain: "")
        }
        return scalar
    }

    @Test(arguments: [
        ("a: 123", YAMLScalarKind.int),
        ("a: \"123\"", .string),
        ("a: '123'", .string),
        ("a: !!str 123", .string),
        ("a: 0x1F", .int),
        ("a: -7", .int),
        ("a: 1.5", .float),
        ("a: 1e3", .float),
        ("a: .inf", .float),
        ("a: true", .bool),
        ("a: False", .bool),
        ("a: yes", .string),
        ("a: off", .string),
        ("a: ~", .null),
        ("a: null", .null),
        ("a:", .null),
        ("a: \"\"", .string),
        ("a: 10s", .string),
        ("a: 1.2.3", .string),
        ("a: |\n  text\n", .string),
    ])
    func scalarsAreTypedByTheCoreSchema(_ text: String, _ kind: YAMLScalarKind) throws {
        #expect(try firstValue(text).kind == kind)
    }

    @Test func mappingsKeepFileOrderAndPositions() throws {
        let node = try root("b: 1\na:\n  - x\n  - y\nc: {d: e}\n")
        guard case .mapping(let entries) = node.content else {
            Issue.record("not a mapping")
            return
        }
        #expect(entries.map(\.key) == ["b", "a", "c"])
        #expect(entries.map(\.keyMark) == [YAMLMark(line: 1, column: 1), YAMLMark(line: 2, column: 1), YAMLMark(line: 5, column: 1)])
        guard case .sequence(let items) = entries[1].value.content else {
            Issue.record("a is not a list")
            return
        }
        #expect(items.map(\.mark) == [YAMLMark(line: 3, column: 5), YAMLMark(line: 4, column: 5)])
    }

    @Test func duplicateKeysAreKeptForTheDecoderToReport() throws {
        let node = try root("a: 1\na: 2\n")
        guard case .mapping(let entries) = node.content else {
            Issue.record("not a mapping")
            return
        }
        #expect(entries.map(\.key) == ["a", "a"])
    }

    @Test func jsonIsYAML() throws {
        let json = """
            {"upstreams": {"app": {"url": "http://127.0.0.1:4000/graphql", "max_idle": 8}},
             "routes": [{"path": "/graphql", "upstream": "app", "auth": "none", "map_graphql_errors": true}]}
            """
        let config = ConfigTestSupport.config(json)
        #expect(config?.upstreams.first?.maxIdle == 8)
        #expect(config?.routes.first?.mapGraphQLErrors == true)
    }

    @Test(arguments: [
        ("a: &anchor 1\nb: 2", "anchors (&name) and aliases are not supported; write the value out", YAMLMark(line: 1, column: 4)),
        ("a: 1\nb: *a", "aliases (*name) are not supported; write the value out", YAMLMark(line: 2, column: 4)),
        ("a: 1\n---\nb: 2", "more than one YAML document; a configuration file holds exactly one", YAMLMark(line: 2, column: 1)),
        ("a: !custom x", "unsupported tag !custom", YAMLMark(line: 1, column: 4)),
        ("? [a, b]\n: c", "a mapping key must be a plain value, not a list", YAMLMark(line: 1, column: 3)),
    ])
    func refusedConstructs(_ text: String, _ message: String, _ mark: YAMLMark) {
        #expect(YAMLReader.read(text) == .failure(YAMLReadError(message: message, mark: mark)))
    }

    @Test func syntaxErrorsCarryTheirPosition() {
        guard case .failure(let error) = YAMLReader.read("server:\n  listen: 1\n bad: 2\n") else {
            Issue.record("accepted invalid YAML")
            return
        }
        #expect(error.mark == YAMLMark(line: 3, column: 2))
        #expect(error.message.hasPrefix("did not find expected key"))
    }

    @Test func syntaxErrorsNameTheFileWhenThereIsOne() {
        let result = ConfigLoader.load(yaml: "a: [1\n", environment: [:], sourcePath: "gatehouse.yaml")
        guard case .failure(let errors) = result else {
            Issue.record("accepted invalid YAML")
            return
        }
        #expect(errors.issues.count == 1)
        #expect(errors.issues.first?.path == "")
        #expect(errors.description.hasPrefix("gatehouse.yaml:2:1: did not find expected ',' or ']'"))
    }

    @Test func emptyTextHasNoDocument() throws {
        #expect(try YAMLReader.read("").get() == nil)
        #expect(try YAMLReader.read("# only a comment\n").get() == nil)
    }

    @Test func deepNestingIsRefused() {
        let text = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        guard case .failure(let error) = YAMLReader.read(text) else {
            Issue.record("accepted 100 levels")
            return
        }
        #expect(error.message == "nested deeper than 64 levels")
    }
}
