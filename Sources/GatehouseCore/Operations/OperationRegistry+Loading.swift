import GatehouseIO

// Loading runs at startup and on reload, never per request.

extension OperationRegistry {
    // MARK: - Loading

    /// Reads every `*.graphql` file under `directory` (recursively, in byte order of their
    /// relative paths) and registers each named operation under its name, the SHA-256 of its
    /// stored text and, for a file holding exactly one operation, the SHA-256 of the whole file.
    /// Fragments are shared by all files of the directory. Every problem is reported at once.
    public static func load(directory: String) -> Result<OperationRegistry, OperationLoadErrors> {
        var (sources, issues) = readSources(directory: directory)
        let result = load(sources: sources)
        guard !issues.isEmpty else { return result }
        if case .failure(let more) = result { issues += more.issues }
        return .failure(OperationLoadErrors(issues))
    }

    /// The `*.graphql` files under `directory` as `load(directory:)` reads them (recursively, in
    /// byte order of their relative paths), and the files it could not read. `gatehouse sdk`
    /// reads the operations from the same files the gateway registers.
    public static func readSources(directory: String) -> (sources: [(path: String, text: String)],
                                                          issues: [OperationLoadIssue]) {
        guard let listed = FileSystem.files(under: directory) else {
            return ([], [OperationLoadIssue(file: directory, position: nil, message: "cannot read the operations directory")])
        }
        let files = listed.filter { $0.hasSuffix(".graphql") }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        var sources: [(path: String, text: String)] = []
        var issues: [OperationLoadIssue] = []
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        for relativePath in files {
            let path = base + relativePath
            guard case .success(let data) = FileSystem.read(path) else {
                issues.append(OperationLoadIssue(file: path, position: nil, message: "cannot read the file"))
                continue
            }
            guard let text = String(validating: data, as: UTF8.self) else {
                issues.append(OperationLoadIssue(file: path, position: nil, message: "the file is not valid UTF-8"))
                continue
            }
            sources.append((path: path, text: text))
        }
        return (sources, issues)
    }

    /// Registers the operations of in-memory documents, as `load(directory:)` does for files;
    /// `path` only names the document in issues.
    public static func load(sources: [(path: String, text: String)]) -> Result<OperationRegistry, OperationLoadErrors> {
        var builder = OperationRegistryBuilder()
        for source in sources {
            builder.add(file: source.path, text: source.text)
        }
        return builder.build()
    }
}
