import GatehouseGraphQL

/// Makes HS256 tokens: `gatehouse token` and the demo backend's login mutation.
public enum JWTMinter {
    /// A compact JWS with header `{"alg":"HS256","typ":"JWT"}` and `claims` as the payload, members
    /// in the given order.
    public static func hs256(secret: String, claims: [(String, JSONValue)]) -> String {
        var token = Base64URL.encode(#"{"alg":"HS256","typ":"JWT"}"#.utf8)
        token.append(UInt8(ascii: "."))
        let payload = JSONValue.object(JSONObject(claims.map { (key: $0.0, value: $0.1) }))
        Base64URL.encode(payload.serializedBytes, into: &token)
        let signature = JOSESignature.hmac(.HS256, key: Array(secret.utf8), data: token)
        token.append(UInt8(ascii: "."))
        Base64URL.encode(signature, into: &token)
        return String(decoding: token, as: UTF8.self)
    }
}
