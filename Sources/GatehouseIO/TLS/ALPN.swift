/// Application-layer protocol negotiation for the one protocol the gateway speaks.
enum ALPN {
    static let http11: [UInt8] = Array("http/1.1".utf8)
    /// The client's offer: each protocol name prefixed by its length.
    static let http11WireFormat: [UInt8] = [UInt8(http11.count)] + http11

    /// The `http/1.1` entry inside a client's length-prefixed offer, or nil. The result points into
    /// `offered`, which OpenSSL keeps valid for as long as the selection is used.
    static func findHTTP11(in offered: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        var index = 0
        while index < offered.count {
            let length = Int(offered[index])
            let start = index + 1
            guard length > 0, start + length <= offered.count else { return nil }  // malformed offer
            let name = UnsafeBufferPointer(rebasing: offered[start..<start + length])
            if name.elementsEqual(http11) { return name }
            index = start + length
        }
        return nil
    }
}
