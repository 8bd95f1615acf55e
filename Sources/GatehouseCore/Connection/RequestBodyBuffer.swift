import GatehouseIO

/// A request body read whole before an upstream connection is taken (README, "Request bodies
/// and slow clients"): in memory up to `server.request_buffer`, then in an unlinked temporary
/// file in `server.temp_dir`, so a slow client never holds an upstream connection and a large
/// body does not grow the gateway's memory.
final class RequestBodyBuffer {
    enum Failure: Error, Equatable {
        /// The temporary file could not be created or written (errno).
        case spool(Int32)
    }

    private(set) var memory: [UInt8] = []
    /// The spool file once the body outgrew memory; it holds every byte from offset 0.
    private(set) var file: Int32 = -1
    private(set) var count = 0
    private let memoryLimit: Int
    private let directory: String

    init(memoryLimit: Int, directory: String) {
        self.memoryLimit = memoryLimit
        self.directory = directory
    }

    deinit {
        if file >= 0 { Syscalls.close(file) }
    }

    var isSpooled: Bool { file >= 0 }

    func append(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        guard !bytes.isEmpty else { return }
        if file < 0 && count + bytes.count <= memoryLimit {
            memory.append(contentsOf: bytes)
            count += bytes.count
            return
        }
        if file < 0 { try spoolMemory() }
        if case .failed(let code) = Syscalls.pwriteAll(file, bytes.baseAddress!, bytes.count, at: count) {
            throw .spool(code)
        }
        count += bytes.count
    }

    private func spoolMemory() throws(Failure) {
        switch Syscalls.openUnlinkedTempFile(in: directory) {
        case .done(let fd): file = Int32(fd)
        case .failed(let code): throw .spool(code)
        case .wouldBlock: throw .spool(0)
        }
        if !memory.isEmpty {
            let result = memory.withUnsafeBytes { Syscalls.pwriteAll(file, $0.baseAddress!, $0.count, at: 0) }
            if case .failed(let code) = result { throw .spool(code) }
        }
        memory = []
    }

    /// Copies up to `limit` bytes starting at `offset` into `out`; returns how many.
    func copy(from offset: Int, limit: Int, into out: inout ByteBuffer) -> Int {
        let wanted = min(limit, count - offset)
        guard wanted > 0 else { return 0 }
        guard file >= 0 else {
            memory.withUnsafeBytes { out.append(UnsafeRawBufferPointer(rebasing: $0[offset..<offset + wanted])) }
            return wanted
        }
        out.reserveTail(wanted)
        guard case .done(let n) = Syscalls.pread(file, out.tail, wanted, at: offset) else { return 0 }
        out.commit(n)
        return n
    }

    /// The whole body as one array (bodies the operation policy reads, which `max_body_bytes` bounds).
    func bytes() -> [UInt8] {
        guard file >= 0 else { return memory }
        var out = ByteBuffer(capacity: count)
        var offset = 0
        while offset < count {
            let n = copy(from: offset, limit: count - offset, into: &out)
            if n == 0 { break }
            offset += n
        }
        return Array(out.readable)
    }
}
