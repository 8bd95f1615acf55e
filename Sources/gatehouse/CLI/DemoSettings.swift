import GatehouseConfig
import GatehouseDemo

/// What the demo backend takes from the demo's gateway configuration, so that `config/demo.yaml`
/// is the one place that says where the backend listens and which secrets it shares with the
/// gateway.
struct DemoSettings {
    /// The GraphQL upstream the backend answers as; it listens on this upstream's host and port.
    static let graphQLUpstream = "demo"
    /// The AEM upstream, whose `aem_config` names the persisted queries' configuration.
    static let contentUpstream = "content"
    /// The JWT provider whose `secret` signs the tokens the login mutation hands out.
    static let userAuth = "user-jwt"
    /// The upstream header the backend demands on GraphQL requests.
    static let serviceTokenHeader = "X-Service-Token"

    var backendHost: String
    var backendPort: Int
    var tokenSecret: String
    var serviceToken: String?
    var aemConfig: String

    static func from(_ config: GatewayConfig) -> Result<DemoSettings, ConfigIssue> {
        guard let upstream = config.upstream(named: graphQLUpstream) else {
            return .failure(ConfigIssue(path: "upstreams.\(graphQLUpstream)", message: "the demo backend's upstream is required"))
        }
        guard let auth = config.authProvider(named: userAuth), case .jwt(let jwt) = auth.kind,
              let secret = jwt.secret else {
            return .failure(ConfigIssue(path: "auth.\(userAuth).secret",
                                        message: "the demo needs an HS256 secret to sign its login tokens"))
        }
        let serviceToken = upstream.headers.first {
            $0.name.lowercased() == serviceTokenHeader.lowercased()
        }?.value
        let aemConfig = config.upstream(named: contentUpstream)?.aemConfig ?? DemoBackend.defaultAEMConfig
        return .success(DemoSettings(backendHost: upstream.url.host, backendPort: upstream.url.port,
                                     tokenSecret: secret, serviceToken: serviceToken, aemConfig: aemConfig))
    }
}
