/// What `gatehouse sdk swift` was asked for.
public struct SwiftSDKOptions: Sendable {
    /// The SwiftPM package, library product and module name.
    public var packageName: String
    /// GraphQL scalar name -> Swift type, over the built-in mapping (`--scalar Name=SwiftType`).
    public var customScalars: [String: String]
    /// Named in the generated files' header, as written on the command line.
    public var schemaPath: String
    public var configPath: String

    public static let defaultPackageName = "GatehouseAPI"

    public init(packageName: String = SwiftSDKOptions.defaultPackageName, customScalars: [String: String] = [:],
                schemaPath: String, configPath: String) {
        self.packageName = packageName
        self.customScalars = customScalars
        self.schemaPath = schemaPath
        self.configPath = configPath
    }
}

/// One file of the generated package, its path relative to the output directory.
public struct GeneratedFile: Sendable, Equatable {
    public var path: String
    public var contents: String
}
