import CLinux
import Glibc

/// Files, directories, the environment and the clock for the command line and for loading
/// configuration — through libc, so the gateway links no Foundation (whose libraries alone put
/// about 8 MiB into the resident set at start). Never used on the request path.
public enum FileSystem {
    public enum Kind: Equatable, Sendable {
        case file
        case directory
    }

    /// A failed call's errno, with the system's words for it.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let code: Int32
        public var description: String { Syscalls.errorText(code) }
    }

    /// Larger than any configuration, key set or schema; guards against reading a device.
    public static let defaultReadLimit = 64 << 20

    /// The whole file, or why not (a file over `limit` fails with EFBIG).
    public static func read(_ path: String, limit: Int = defaultReadLimit) -> Result<[UInt8], Failure> {
        guard case .done(let opened) = Syscalls.open(path, O_RDONLY) else { return .failure(Failure(code: errno)) }
        let fd = Int32(opened)
        defer { Syscalls.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let result = chunk.withUnsafeMutableBytes { Syscalls.read(fd, $0.baseAddress!, $0.count) }
            switch result {
            case .done(0):
                return .success(bytes)
            case .done(let n):
                bytes.append(contentsOf: chunk[0..<n])
                if bytes.count > limit { return .failure(Failure(code: EFBIG)) }
            case .wouldBlock:
                return .failure(Failure(code: EAGAIN))
            case .failed(let code):
                return .failure(Failure(code: code))
            }
        }
    }

    /// The file as UTF-8 text; nil when it cannot be read or is not UTF-8.
    public static func readText(_ path: String) -> String? {
        guard case .success(let bytes) = read(path) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Replaces the file's contents (created with mode 0644 when missing).
    public static func write(_ bytes: [UInt8], to path: String) -> Result<Void, Failure> {
        switch Syscalls.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644) {
        case .done(let opened):
            let fd = Int32(opened)
            defer { Syscalls.close(fd) }
            var written = 0
            while written < bytes.count {
                let result = bytes.withUnsafeBytes { Syscalls.writeFile(fd, $0.baseAddress! + written, $0.count - written) }
                switch result {
                case .done(let n): written += n
                case .wouldBlock: return .failure(Failure(code: EAGAIN))
                case .failed(let code): return .failure(Failure(code: code))
                }
            }
            return .success(())
        case .failed(let code):
            return .failure(Failure(code: code))
        case .wouldBlock:
            return .failure(Failure(code: EAGAIN))
        }
    }

    /// Creates `path` and every missing parent (mode 0755), as `mkdir -p` does.
    public static func makeDirectories(_ path: String) -> Result<Void, Failure> {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { return .failure(Failure(code: errno)) }
            prefix += "/"
        }
        return .success(())
    }

    /// What `path` is, or nil when it does not exist (or cannot be looked at).
    public static func kind(of path: String) -> Kind? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT == S_IFDIR ? .directory : .file
    }

    /// Every regular file below `directory`, as paths relative to it, in no particular order;
    /// nil when the directory cannot be listed.
    public static func files(under directory: String) -> [String]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var found: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            switch kind(of: path) {
            case .directory:
                guard let nested = files(under: path) else { return nil }
                found += nested.map { name + "/" + $0 }
            case .file:
                found.append(name)
            case nil:
                continue
            }
        }
        return found
    }

    /// Sets the file's modification time to now.
    public static func touch(_ path: String) {
        _ = utimensat(AT_FDCWD, path, nil, 0)
    }

    /// The process environment, as `name: value`.
    public static var environment: [String: String] {
        var result: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            cursor += 1
        }
        return result
    }

    /// Wall-clock seconds since the Unix epoch.
    public static var unixSeconds: Int64 { gh_realtime_ns() / 1_000_000_000 }

    /// Writes `text` to standard error at once (unbuffered).
    public static func writeStandardError(_ text: String) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Syscalls.writeFile(2, $0.baseAddress! + written, $0.count - written) }
            guard case .done(let n) = result, n > 0 else { return }
            written += n
        }
    }
}
