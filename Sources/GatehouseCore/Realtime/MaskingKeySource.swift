import CLinux

/// Masking keys for the frames a tunnel sends upstream (RFC 6455 §5.3: fresh per frame, from a
/// strong source of entropy). They come from the kernel's CSPRNG like `SystemRandomNumberGenerator`,
/// but a batch per call: one getrandom per `batchSize` frames instead of one per frame, which
/// profiling showed costing a syscall and a ChaCha block per 1 KiB message.
struct MaskingKeySource {
    /// 256 bytes per refill; allocated on a tunnel's first client frame, so idle tunnels that never
    /// hear from their client hold none.
    static let batchSize = 64

    private var keys: [UInt32] = []
    private var next = 0

    /// A fresh, non-zero key (a zero key would leave the payload as sent).
    mutating func key() -> UInt32 {
        while true {
            if next == keys.count { refill() }
            let key = keys[next]
            next += 1
            if key != 0 { return key }
        }
    }

    private mutating func refill() {
        if keys.isEmpty { keys = [UInt32](repeating: 0, count: Self.batchSize) }
        keys.withUnsafeMutableBytes { raw in
            var filled = 0
            while filled < raw.count {
                let got = gh_getrandom(raw.baseAddress! + filled, raw.count - filled)
                if got > 0 { filled += Int(got) }  // interrupted or short: ask again for the rest
            }
        }
        next = 0
    }
}
