/// A command in RESP, the form Redis reads: `*argc`, then each argument as `$length` and its
/// bytes. Written by the client itself and handed to hiredis whole, since hiredis's own
/// formatting (`redisAsyncCommandArgv`) grows a string through printf-style appends, argument by
/// argument, which showed in profiles of every Redis command.
extension ByteBuffer {
    mutating func appendRedisCommand(_ arguments: [[UInt8]]) {
        append(byte: UInt8(ascii: "*"))
        append(decimal: arguments.count)
        append("\r\n")
        for argument in arguments {
            append(byte: UInt8(ascii: "$"))
            append(decimal: argument.count)
            append("\r\n")
            append(argument)
            append("\r\n")
        }
    }
}
