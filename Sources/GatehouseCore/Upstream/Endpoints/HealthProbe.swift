import GatehouseIO
import Glibc

/// One active health check: `GET <path>` on a new connection, passing on a 2xx status within
/// the timeout. Blocking (poll with the remaining time), so it runs on the checker thread only.
/// https upstreams are checked by connecting alone: the TLS session is the data path's concern.
enum HealthProbe {
    /// The status line is all a check reads.
    static let maxResponseBytes = 1024

    static func check(_ address: SocketAddress, path: String, hostHeader: String, tcpOnly: Bool,
                      timeoutNanos: UInt64) -> Bool {
        let deadline = MonotonicClock.nanoseconds + timeoutNanos
        guard case .done(let raw) = Syscalls.connect(to: address) else { return false }
        let fd = Int32(raw)
        defer { Syscalls.close(fd) }
        guard wait(fd, for: Int16(POLLOUT), until: deadline), Syscalls.connectError(fd) == 0 else { return false }
        if tcpOnly { return true }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: gatehouse-health\r\nConnection: close\r\n\r\n".utf8)
        var written = 0
        while written < request.count {
            let result = request.withUnsafeBytes { Syscalls.write(fd, $0.baseAddress! + written, request.count - written) }
            switch result {
            case .done(let n): written += n
            case .wouldBlock: guard wait(fd, for: Int16(POLLOUT), until: deadline) else { return false }
            case .failed: return false
            }
        }
        var response = [UInt8](repeating: 0, count: maxResponseBytes)
        var received = 0
        while received < maxResponseBytes {
            if let status = statusCode(response[0..<received]) { return (200..<300).contains(status) }
            let result = response.withUnsafeMutableBytes { Syscalls.receive(fd, $0.baseAddress! + received, maxResponseBytes - received) }
            switch result {
            case .done(0), .failed: return false
            case .done(let n): received += n
            case .wouldBlock: guard wait(fd, for: Int16(POLLIN), until: deadline) else { return false }
            }
        }
        return false
    }

    /// The status of "HTTP/1.x NNN" once the first line is in.
    static func statusCode(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else { return -1 }
        return code
    }

    private static func wait(_ fd: Int32, for events: Int16, until deadline: UInt64) -> Bool {
        let now = MonotonicClock.nanoseconds
        guard now < deadline else { return false }
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let millis = Int32(max(1, (deadline - now) / 1_000_000))
        return poll(&entry, 1, millis) == 1 && entry.revents & events != 0
    }
}
