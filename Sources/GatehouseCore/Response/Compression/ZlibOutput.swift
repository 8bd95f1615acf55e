import CZlib

/// Runs one zlib step with output going straight into the spare end of a byte array: the array
/// grows by `room` bytes, zlib writes into them, and the unused tail is cut off again.
enum ZlibOutput {
    /// Returns zlib's status code and how many bytes were produced; `produced == room` means zlib
    /// may have more to give.
    static func step(_ stream: UnsafeMutablePointer<z_stream>, appendingTo output: inout [UInt8], room: Int,
                     _ body: (UnsafeMutablePointer<z_stream>) -> Int32) -> (code: Int32, produced: Int) {
        let start = output.count
        // Grown by copying from a zero block: appending `repeatElement` goes element by element.
        output.append(contentsOf: Self.zeros[0..<min(room, Self.zeros.count)])
        let code = output.withUnsafeMutableBufferPointer { buffer in
            stream.pointee.next_out = buffer.baseAddress! + start
            stream.pointee.avail_out = UInt32(room)
            let code = body(stream)
            // The array may move after this closure; zlib must not keep a pointer into it.
            stream.pointee.next_out = nil
            return code
        }
        let unused = Int(stream.pointee.avail_out)
        output.removeLast(unused)
        return (code, room - unused)
    }

    /// Callers ask for at most 256 KiB of room per step.
    private static let zeros = [UInt8](repeating: 0, count: 256 * 1024)

    /// zlib counts input in `uInt`; larger inputs are fed in slices of at most this many bytes.
    static let maximumSlice = 1 << 30
}
