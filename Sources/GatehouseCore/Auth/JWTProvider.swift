/// A JWT provider as its routes use it. One object, so a request's pass over its route's
/// providers retains one reference rather than a name, a verifier and a claim list each.
final class JWTProvider: Sendable {
    let name: String
    let verifier: JWTVerifier
    /// `claims_to_headers`: the header each claim is sent upstream in.
    let claimHeaders: [(name: String, claim: String)]

    init(name: String, verifier: JWTVerifier, claimHeaders: [(name: String, claim: String)]) {
        self.name = name
        self.verifier = verifier
        self.claimHeaders = claimHeaders
    }
}
