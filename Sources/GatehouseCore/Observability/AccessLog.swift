import CLinux
import GatehouseGraphQL
import GatehouseIO
import Glibc

/// One finished request, as metrics and the access log record it.
struct RequestRecord {
    var requestID: RequestID
    var method: UnsafeRawBufferPointer
    var path: UnsafeRawBufferPointer
    var route: CompiledRoute?
    var status: Int
    var upstreamStatus: Int?
    var durationNanos: UInt64
    var upstreamNanos: UInt64?
    var bytesIn: Int
    var bytesOut: Int
    var client: String
    var errorCode: String?
    var subject: String?
    /// nil for requests refused before their head could be parsed.
    var traceContext: TraceContext? = nil
}

/// JSON-lines access log of one worker. Lines collect in a buffer that is written once per
/// event-loop iteration (or when it grows large), so logging costs no syscall per request.
/// Never records a query string, a header value or a body.
final class AccessLog {
    private let fd: Int32
    private unowned let loop: EventLoop
    private var buffer: [UInt8] = []
    private var flushScheduled = false

    /// `fd` < 0 disables the log.
    init(fd: Int32, loop: EventLoop) {
        self.fd = fd
        self.loop = loop
        buffer.reserveCapacity(16 * 1024)
    }

    var isEnabled: Bool { fd >= 0 }

    func write(_ record: RequestRecord) {
        guard fd >= 0 else { return }
        buffer.append(contentsOf: #"{"time":""#.utf8)
        Timestamp.appendISO8601(nanos: gh_realtime_ns(), to: &buffer)
        buffer.append(contentsOf: #"","request_id":"#.utf8)
        record.requestID.withBytes { appendQuoted(bytes: $0) }
        buffer.append(contentsOf: #","method":"#.utf8)
        appendQuoted(bytes: record.method)
        buffer.append(contentsOf: #","path":"#.utf8)
        appendQuoted(bytes: record.path)
        buffer.append(contentsOf: #","route":"#.utf8)
        appendOptional(record.route?.label)
        buffer.append(contentsOf: #","status":"#.utf8)
        buffer.append(contentsOf: String(record.status).utf8)
        buffer.append(contentsOf: #","upstream_status":"#.utf8)
        buffer.append(contentsOf: (record.upstreamStatus.map(String.init) ?? "null").utf8)
        buffer.append(contentsOf: #","duration_ms":"#.utf8)
        appendMillis(record.durationNanos)
        buffer.append(contentsOf: #","upstream_duration_ms":"#.utf8)
        if let upstream = record.upstreamNanos { appendMillis(upstream) } else { buffer.append(contentsOf: "null".utf8) }
        buffer.append(contentsOf: #","bytes_in":"#.utf8)
        buffer.append(contentsOf: String(record.bytesIn).utf8)
        buffer.append(contentsOf: #","bytes_out":"#.utf8)
        buffer.append(contentsOf: String(record.bytesOut).utf8)
        buffer.append(contentsOf: #","client":"#.utf8)
        JSONValue.appendQuoted(record.client, to: &buffer)
        buffer.append(contentsOf: #","error_code":"#.utf8)
        appendOptional(record.errorCode)
        buffer.append(contentsOf: #","subject":"#.utf8)
        appendOptional(record.subject)
        buffer.append(contentsOf: #","trace_id":"#.utf8)
        if let trace = record.traceContext {
            buffer.append(UInt8(ascii: "\""))
            trace.withTraceIDHex { buffer.append(contentsOf: $0) }
            buffer.append(UInt8(ascii: "\""))
        } else {
            buffer.append(contentsOf: "null".utf8)
        }
        buffer.append(contentsOf: "}\n".utf8)
        if buffer.count > 32 * 1024 {
            flush()
        } else if !flushScheduled {
            flushScheduled = true
            loop.defer_ { [self] in flush() }
        }
    }

    func flush() {
        flushScheduled = false
        var offset = 0
        while offset < buffer.count {
            let result = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if result > 0 {
                offset += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                break  // a full or closed log pipe never blocks the gateway; the lines are dropped
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private func appendOptional(_ value: String?) {
        if let value { JSONValue.appendQuoted(value, to: &buffer) } else { buffer.append(contentsOf: "null".utf8) }
    }

    private func appendMillis(_ nanos: UInt64) {
        let micros = nanos / 1000
        buffer.append(contentsOf: String(micros / 1000).utf8)
        buffer.append(UInt8(ascii: "."))
        let fraction = micros % 1000
        if fraction < 100 { buffer.append(UInt8(ascii: "0")) }
        if fraction < 10 { buffer.append(UInt8(ascii: "0")) }
        buffer.append(contentsOf: String(fraction).utf8)
    }

    /// Quotes raw request bytes; anything outside printable ASCII is escaped, so the line stays
    /// valid JSON whatever the client sent.
    private func appendQuoted(bytes: UnsafeRawBufferPointer) {
        buffer.append(UInt8(ascii: "\""))
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(byte)
            case 0x20...0x7E:
                buffer.append(byte)
            default:
                buffer.append(contentsOf: "\\u00".utf8)
                buffer.append(hex[Int(byte >> 4)])
                buffer.append(hex[Int(byte & 0xF)])
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }
}

/// UTC timestamps without Foundation.
enum Timestamp {
    static func appendISO8601(nanos: Int64, to out: inout [UInt8]) {
        let seconds = nanos / 1_000_000_000
        let millis = Int((nanos % 1_000_000_000) / 1_000_000)
        var days = Int(seconds / 86_400)
        let secondOfDay = Int(seconds % 86_400)
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        days += 719_468
        let era = days / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int) { out.append(UInt8(48 + v / 10)); out.append(UInt8(48 + v % 10)) }
        out.append(contentsOf: String(year).utf8)
        out.append(UInt8(ascii: "-")); two(month)
        out.append(UInt8(ascii: "-")); two(day)
        out.append(UInt8(ascii: "T")); two(secondOfDay / 3600)
        out.append(UInt8(ascii: ":")); two(secondOfDay / 60 % 60)
        out.append(UInt8(ascii: ":")); two(secondOfDay % 60)
        out.append(UInt8(ascii: "."))
        out.append(UInt8(48 + millis / 100)); out.append(UInt8(48 + millis / 10 % 10)); out.append(UInt8(48 + millis % 10))
        out.append(UInt8(ascii: "Z"))
    }
}
