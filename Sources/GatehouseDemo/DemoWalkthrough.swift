/// The ready-to-paste curl commands `gatehouse demo` prints once the gateway is up.
public enum DemoWalkthrough {
    /// `token` is a user token for the authenticated door (valid for an hour), so every command
    /// works when pasted as is; step 1 shows how an app obtains one.
    public static func curlCommands(gatewayPort: Int, token: String) -> String {
        let base = "http://127.0.0.1:\(gatewayPort)"
        let json = "-H 'Content-Type: application/json'"
        let login = #"{"query":"mutation createUserToken($email: String!, $password: String!) "#
            + #"{ createUserToken(email: $email, password: $password) { token } }","#
            + #""variables":{"email":"alice@example.com","password":"demo"}}"#
        return """
        Gatehouse demo: gateway \(base), demo backend behind it. Try:

        # 1. Log in on the public door (no credentials; the gateway adds the backend's service token)
        curl -s \(base)/graphql/noauth \(json) \\
          -d '\(login)'

        # 2. Bootstrap settings on the public door
        curl -s \(base)/graphql/noauth \(json) \\
          -d '{"query":"query appsetting { appsetting { cdnUrl minVersion } }"}'

        # 3. The authenticated door, with the token from step 1 (here: one minted for you)
        TOKEN='\(token)'
        curl -s \(base)/graphql \(json) -H "Authorization: Bearer $TOKEN" \\
          -d '{"query":"query me { me { id } }"}'
        curl -s \(base)/graphql \(json) -H "Authorization: Bearer $TOKEN" \\
          -d '{"query":"{ listMoviesByGenre(genre: \\"drama\\", limit: 2) { key title year } }"}'

        # 4. No token: 401 and the gateway's error envelope
        curl -si \(base)/graphql \(json) -d '{"query":"query me { me { id } }"}'

        # 5. An AEM persisted query by name (becomes GET /graphql/execute.json/wknd-shared/adventure-by-slug;slug=…)
        curl -s "\(base)/content/adventure-by-slug?slug=bali-surf-camp" -H "Authorization: Bearer $TOKEN"

        # 6. A stored operation called by name with GET, variables typed from its definition
        curl -s "\(base)/ops/listMoviesByGenre?genre=comedy&limit=5" -H "Authorization: Bearer $TOKEN"
        curl -s "\(base)/ops/getMovieByKey?key=m7" -H "Authorization: Bearer $TOKEN"

        """
    }
}
