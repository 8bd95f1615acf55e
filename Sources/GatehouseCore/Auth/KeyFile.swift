import Glibc

/// Reads key files and their change stamps with plain system calls, so that the verifier's
/// once-a-second "did the JWK Set change?" check costs a single `stat`.
enum KeyFile {
    /// What identifies one version of a file: a rename or rewrite changes at least one part.
    struct Stamp: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modifiedSeconds = Int64(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        }
    }

    struct Failure: Error, Sendable {
        let message: String
    }

    // MARK: - Stamp

    /// The current stamp of `path`, or nil when it cannot be stat'ed.
    static func stamp(path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(info)
    }

    // MARK: - Reading

    static func read(path: String, maxBytes: Int) -> Result<[UInt8], Failure> {
        readWithStamp(path: path, maxBytes: maxBytes).map(\.bytes)
    }

    /// The whole file and the stamp of exactly the version that was read.
    static func readWithStamp(path: String, maxBytes: Int) -> Result<(bytes: [UInt8], stamp: Stamp), Failure> {
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { return .failure(failure("cannot open", path)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(failure("cannot stat", path)) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return .failure(Failure(message: "\"\(path)\" is not a regular file"))
        }
        guard Int(info.st_size) <= maxBytes else {
            return .failure(Failure(message: "\"\(path)\" is larger than \(maxBytes) bytes"))
        }
        // Sized from fstat, grown if the file grows while being read, never past maxBytes + 1
        // (one byte more than allowed is how an oversized file is noticed).
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                guard bytes.count <= maxBytes else { break }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, maxBytes + 1 - bytes.count)))
            }
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(failure("cannot read", path))
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= maxBytes else {
            return .failure(Failure(message: "\"\(path)\" is larger than \(maxBytes) bytes"))
        }
        bytes.removeSubrange(filled...)
        return .success((bytes, Stamp(info)))
    }

    private static func failure(_ what: String, _ path: String) -> Failure {
        Failure(message: "\(what) \"\(path)\": \(String(cString: strerror(errno)))")
    }
}
