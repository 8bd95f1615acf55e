import COpenSSL

/// `Sec-WebSocket-Accept` (RFC 6455 §4.2.2): base64 of SHA-1 over the client's key and the
/// protocol's fixed GUID. The gateway computes it to answer a handshake itself (tokens in
/// `connection_init`) and to check the upstream's 101 before switching a connection to a tunnel.
enum WebSocketAccept {
    /// RFC 6455 §1.3.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    static let sha1DigestBytes = 20
    /// base64 of 20 bytes: 28 characters, plus the terminating NUL EVP_EncodeBlock writes.
    static let encodedBytes = 28

    static func value(forKey key: some Collection<UInt8>) -> String {
        var input = Array(key)
        input.append(contentsOf: guid.utf8)
        var digest = [UInt8](repeating: 0, count: sha1DigestBytes)
        input.withUnsafeBytes { bytes in
            _ = EVP_Digest(bytes.baseAddress, bytes.count, &digest, nil, FetchedDigest.sha1, nil)
        }
        var encoded = [UInt8](repeating: 0, count: encodedBytes + 1)
        _ = EVP_EncodeBlock(&encoded, digest, Int32(sha1DigestBytes))
        return String(decoding: encoded.prefix(encodedBytes), as: UTF8.self)
    }

    /// Whether an upstream's `Sec-WebSocket-Accept` answers the key the gateway sent.
    static func matches(_ accept: some Collection<UInt8>, key: some Collection<UInt8>) -> Bool {
        Array(accept) == Array(value(forKey: key).utf8)
    }
}
