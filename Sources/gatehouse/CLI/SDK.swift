import GatehouseIO
import GatehouseConfig
import GatehouseCore
import GatehouseSDK

/// `gatehouse sdk swift --config F --schema S --out DIR [--package Name] [--scalar X=Y]…`: a
/// typed Swift client package for the operations the gateway holds, routed by its config.
/// Usage errors exit 2; config, schema and operation errors exit 1 with `file:line:column`.
enum SDK {
    static func run(_ arguments: [String]) throws -> Int32 {
        guard let language = arguments.first, !language.hasPrefix("-") else {
            throw UsageError("sdk needs a language: gatehouse sdk swift …")
        }
        guard language == "swift" else { throw UsageError("unknown sdk language \"\(language)\" (only swift)") }
        let options = try Options.parse(Array(arguments.dropFirst()),
                                        valued: ["--config", "--schema", "--out", "--package", "--scalar"])
        guard let schemaPath = options.value("--schema") else { throw UsageError("sdk swift needs --schema") }
        guard let outDirectory = options.value("--out") else { throw UsageError("sdk swift needs --out") }
        let packageName = options.value("--package") ?? SwiftSDKOptions.defaultPackageName
        guard isSwiftIdentifier(packageName) else {
            throw UsageError("--package takes a Swift identifier such as MoviesAPI")
        }
        var scalars: [String: String] = [:]
        for pair in options.all("--scalar") {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex,
                  pair.index(after: equals) != pair.endIndex else {
                throw UsageError("--scalar takes GraphQLName=SwiftType, e.g. --scalar URL=URL")
            }
            scalars[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        let configPath = CommandLineInterface.configPath(options)
        return generate(configPath: configPath, schemaPath: schemaPath, outDirectory: outDirectory,
                        options: SwiftSDKOptions(packageName: packageName, customScalars: scalars,
                                                 schemaPath: schemaPath, configPath: configPath))
    }

    private static func generate(configPath: String, schemaPath: String, outDirectory: String,
                                 options: SwiftSDKOptions) -> Int32 {
        let config: GatewayConfig
        switch ConfigLoader.load(path: configPath, environment: FileSystem.environment) {
        case .success(let loaded): config = loaded
        case .failure(let errors): return fail(errors.issues.map(\.description))
        }
        var sources: [(path: String, text: String)] = []
        var held: Set<String> = []
        if let directory = config.operations?.dir {
            let read = OperationRegistry.readSources(directory: directory)
            switch OperationRegistry.load(sources: read.sources) {
            case .success(let registry) where read.issues.isEmpty:
                held = Set(registry.operations.map(\.name))
            case .success:
                return fail(read.issues.map(\.description))
            case .failure(let errors):
                return fail((read.issues + errors.issues).map(\.description))
            }
            sources = read.sources
        }
        guard let schemaText = FileSystem.readText(schemaPath) else {
            return fail(["\(schemaPath): cannot read the schema (a UTF-8 SDL file)"])
        }
        let output: SwiftSDK.Output
        switch SwiftSDK.generate(config: config, schemaText: schemaText, operationFiles: sources,
                                 heldOperations: held, options: options) {
        case .success(let generated): output = generated
        case .failure(let issues): return fail(issues.issues.map(\.description))
        }
        for warning in output.warnings { printError("warning: \(warning)") }
        switch GeneratedPackageWriter.write(output.files, to: outDirectory, packageName: options.packageName) {
        case .success(let summary):
            print("\(outDirectory): package \(options.packageName), \(output.files.count) files "
                  + "(\(summary.written) written, \(summary.unchanged) unchanged, \(summary.removed) removed)")
            return 0
        case .failure(let issue):
            return fail([issue.description])
        }
    }

    private static func isSwiftIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic && first.isASCII else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }

    private static func fail(_ lines: [String]) -> Int32 {
        for line in lines { printError(line) }
        return 1
    }

    private static func printError(_ line: String) {
        FileSystem.writeStandardError(line + "\n")
    }
}
