import COpenSSL

// MARK: - Messages from OpenSSL's thread-local error queue

extension TLSError {
    /// `context: reason` with the earliest (root-cause) error in the queue; empties the queue.
    static func fromQueue(_ context: String) -> TLSError {
        guard let reason = OpenSSLErrorQueue.drainReason() else { return TLSError(context) }
        return TLSError("\(context): \(reason)")
    }
}

enum OpenSSLErrorQueue {
    /// OpenSSL marks errors that carry an errno (`ERR_SYSTEM_FLAG`, a macro Swift cannot import).
    private static let systemErrorFlag: UInt = 1 << 31

    /// The reason text of the earliest queued error, or nil when the queue is empty. Empties the queue
    /// so that a later call on this thread starts clean.
    static func drainReason() -> String? {
        var earliest: String?
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            if earliest == nil { earliest = reasonText(code) }
        }
        return earliest
    }

    /// The reason code of the earliest queued error (0 when none), without removing it.
    static func peekReason() -> Int32 {
        let code = ERR_peek_error()
        return code == 0 ? 0 : ERR_GET_REASON(code)
    }

    /// Whether the earliest queued error is `reason` from `library`, without removing it.
    static func earliestIs(library: Int32, reason: Int32) -> Bool {
        let code = ERR_peek_error()
        return code != 0 && code & systemErrorFlag == 0 && ERR_GET_LIB(code) == library && ERR_GET_REASON(code) == reason
    }

    static func reasonText(_ code: UInt) -> String {
        if code & systemErrorFlag != 0 {
            // System errors hold an errno; OpenSSL has no static text for them.
            return Syscalls.errorText(ERR_GET_REASON(code))
        }
        if let reason = ERR_reason_error_string(code) { return String(cString: reason) }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
            ERR_error_string_n(code, buffer.baseAddress, buffer.count)
            return String(cString: buffer.baseAddress!)
        }
    }
}
