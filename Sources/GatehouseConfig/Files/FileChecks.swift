import GatehouseIO
import Glibc

/// Checks that files a configuration names can be read, so `gatehouse check` catches a wrong
/// path before the gateway starts. Relative paths are taken from the working directory, as the
/// gateway will open them; `baseDirectory` replaces the working directory (tests use it).
struct FileChecks: Sendable {
    var baseDirectory: String?

    func resolve(_ path: String) -> String {
        guard let baseDirectory, !path.hasPrefix("/") else { return path }
        return baseDirectory.hasSuffix("/") ? baseDirectory + path : baseDirectory + "/" + path
    }

    /// nil when `path` is a regular file this process can read.
    func readableFileProblem(_ path: String) -> ValueProblem? {
        switch kind(of: path) {
        case .failure(let problem): return problem
        case .success(.directory): return ValueProblem("\"\(path)\" is a directory, not a file")
        case .success(.file): return nil
        }
    }

    /// nil when `path` is a directory this process can list.
    func readableDirectoryProblem(_ path: String) -> ValueProblem? {
        switch kind(of: path) {
        case .failure(let problem): return problem
        case .success(.file): return ValueProblem("\"\(path)\" is not a directory")
        case .success(.directory): return nil
        }
    }

    /// The bytes of a file already checked with `readableFileProblem`.
    func contents(of path: String) -> [UInt8]? {
        try? FileSystem.read(resolve(path)).get()
    }

    // MARK: - File system

    private enum Kind {
        case file
        case directory
    }

    private func kind(of path: String) -> Result<Kind, ValueProblem> {
        guard !path.isEmpty else { return .failure(ValueProblem("must not be empty")) }
        let resolved = resolve(path)
        var status = stat()
        guard stat(resolved, &status) == 0 else { return .failure(systemProblem(path)) }
        let isDirectory = status.st_mode & S_IFMT == S_IFDIR
        let mode = isDirectory ? R_OK | X_OK : R_OK
        guard access(resolved, mode) == 0 else { return .failure(systemProblem(path)) }
        return .success(isDirectory ? .directory : .file)
    }

    private func systemProblem(_ path: String) -> ValueProblem {
        let reason = String(cString: strerror(errno))
        return ValueProblem("cannot read \"\(path)\": \(reason)")
    }
}
