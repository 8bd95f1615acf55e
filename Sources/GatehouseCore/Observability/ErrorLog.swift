import Glibc

/// Operational messages on stderr (stdout belongs to the access log). One write per line, so
/// lines from several workers do not interleave.
public enum ErrorLog {
    public static func info(_ message: String) { write("info", message) }
    public static func warn(_ message: String) { write("warn", message) }
    public static func error(_ message: String) { write("error", message) }

    private static func write(_ level: String, _ message: String) {
        var line = Array("gatehouse \(level): \(message)\n".utf8)
        line.withUnsafeMutableBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
