/// Turns a configuration file into a validated `GatewayConfig`, or into every problem it has,
/// each as `path.to.key: message` in file order (`gatehouse check` prints them one per line).
///
/// What the loader accepts is documented in `config/gatehouse.yaml`; in short: one YAML 1.2
/// document (JSON too), no anchors or aliases, unknown keys refused, `${VAR}` / `${VAR:-default}`
/// substituted in values (keys are the schema and are taken literally), durations such as `10s`
/// and `1m30s`, sizes in bytes or `KiB`/`MiB`/`GiB`.
public enum ConfigLoader {
    /// Loads the file at `path`. An unreadable file is one issue with an empty key path.
    public static func load(path: String, environment: [String: String]) -> Result<GatewayConfig, ConfigErrors> {
        switch ConfigFileReader.read(path) {
        case .failure(let problem):
            return .failure(ConfigErrors([ConfigIssue(path: "", message: problem.message)]))
        case .success(let text):
            return load(yaml: text, environment: environment, sourcePath: path)
        }
    }

    /// Loads configuration text; `sourcePath` names the file in messages and in the result.
    public static func load(yaml: String, environment: [String: String],
                            sourcePath: String? = nil) -> Result<GatewayConfig, ConfigErrors> {
        load(yaml: yaml, environment: environment, sourcePath: sourcePath, files: FileChecks())
    }

    /// As above, with relative file paths checked against `files.baseDirectory` (for tests).
    static func load(yaml: String, environment: [String: String], sourcePath: String?,
                     files: FileChecks) -> Result<GatewayConfig, ConfigErrors> {
        let root: YAMLNode?
        switch YAMLReader.read(yaml) {
        case .failure(let error):
            return .failure(ConfigErrors([syntaxIssue(error, sourcePath: sourcePath)]))
        case .success(let node):
            root = node
        }
        let decoder = ConfigDecoder(environment: environment, files: files)
        if let config = decoder.document(root, sourcePath: sourcePath) {
            return .success(config)
        }
        return .failure(ConfigErrors(decoder.issues.inFileOrder))
    }

    /// `file.yaml:3:5: message`, or `line 3, column 5: message` for text without a file.
    private static func syntaxIssue(_ error: YAMLReadError, sourcePath: String?) -> ConfigIssue {
        guard let mark = error.mark else {
            return ConfigIssue(path: "", message: "\(sourcePath.map { "\($0): " } ?? "")\(error.message)")
        }
        let position = sourcePath.map { "\($0):\(mark.line):\(mark.column)" } ?? "\(mark)"
        return ConfigIssue(path: "", message: "\(position): \(error.message)")
    }
}
