#if canImport(Glibc)
import Glibc
#endif

/// Reads the configuration file as UTF-8 text, with the system's reason when it cannot.
enum ConfigFileReader {
    /// Larger than any sensible configuration; guards against pointing `--config` at a device.
    static let maximumBytes = 16 << 20

    static func read(_ path: String) -> Result<String, ValueProblem> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(failure(path)) }
        defer { close(descriptor) }

        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(failure(path))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= maximumBytes else {
                return .failure(ValueProblem("cannot read config file \"\(path)\": larger than 16 MiB"))
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(ValueProblem("cannot read config file \"\(path)\": not UTF-8 text"))
        }
        return .success(text)
    }

    private static func failure(_ path: String) -> ValueProblem {
        ValueProblem("cannot read config file \"\(path)\": \(String(cString: strerror(errno)))")
    }
}
