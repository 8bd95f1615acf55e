import GatehouseHTTP
import GatehouseIO

/// The lines a head writer keeps from a parsed head (the upstream request from the client's,
/// the client's response from the upstream's), written with as few copies as they allow: lines
/// the sender wrote plainly ("Name: value\r\n", as clients and servers do) and back to back go
/// out as one run, one copy; any other line is the writer's to rebuild from its trimmed value.
/// Dropped lines between kept ones end a run, so what is dropped never goes out with it.
struct HeadLineRun {
    private var run = 0..<0

    /// Adds `field`'s line to the run when it was written plainly. False, with the run written
    /// out first, when the writer must write the line itself.
    @inline(__always)
    mutating func add(_ field: HeaderField, from raw: UnsafeRawBufferPointer, into out: inout ByteBuffer) -> Bool {
        guard field.isWrittenPlainly(in: raw) else {
            flush(from: raw, into: &out)
            return false
        }
        if !run.isEmpty && run.upperBound == field.name.lowerBound {
            run = run.lowerBound..<field.line.upperBound
        } else {
            flush(from: raw, into: &out)
            run = field.line
        }
        return true
    }

    /// Writes out the run so far (before a rebuilt line, and after the last field).
    @inline(__always)
    mutating func flush(from raw: UnsafeRawBufferPointer, into out: inout ByteBuffer) {
        out.append(UnsafeRawBufferPointer(rebasing: raw[run]))
        run = 0..<0
    }
}
