import Foundation

/// The gateway configuration `gatehouse demo` serves with (SPEC §2 format): the two doors in front
/// of the demo backend, the AEM-style content route, and persisted operations called by name.
extension DemoBackend {
    /// The config file text. `secret` signs and verifies user tokens (HS256, at least 32 bytes);
    /// `serviceToken` is the header the gateway injects and the backend demands.
    /// `operationsDirectory` is where the seed apps' `*.graphql` operations live; without one the
    /// `operations:` section is left out and calls by name on `/ops/*` find nothing.
    static func demoConfigYAML(gatewayPort: Int, backendPort: Int, adminPort: Int, secret: String,
                               serviceToken: String,
                               operationsDirectory: String? = DemoBackend.bundledOperationsDirectory()) -> String {
        var yaml = """
        # gatehouse demo: the gateway on 127.0.0.1:\(gatewayPort) in front of the built-in demo backend.
        server:
          listen: "127.0.0.1:\(gatewayPort)"
          workers: 1
          admin_listen: "127.0.0.1:\(adminPort)"
          access_log: stdout

        upstreams:
          demo:
            url: "http://127.0.0.1:\(backendPort)/graphql"
            kind: graphql
            timeout: 10s
            headers:
              X-Service-Token: \(yamlQuoted(serviceToken))
          content:
            url: "http://127.0.0.1:\(backendPort)"
            kind: aem
            aem_config: wknd-shared
            timeout: 10s

        auth:
          user-jwt:
            type: jwt
            algorithms: [HS256]
            secret: \(yamlQuoted(secret))
            leeway: 30s
            claims_to_headers:
              X-User-Id: sub

        """
        if let operationsDirectory {
            yaml += """
            operations:
              dir: \(yamlQuoted(operationsDirectory))

            """
        }
        yaml += """
        routes:
          # The public door: login and bootstrap only.
          - path: /graphql/noauth
            methods: [POST]
            upstream: demo
            upstream_path: /graphql/noauth
            auth: none
            persisted: allow
            operations: [createUserToken, appsetting]
            timeout: 5s
            headers:
              set: { X-Client-Door: public }
              remove: [Cookie]
          # The authenticated door: a valid user token, its subject passed on as X-User-Id.
          - path: /graphql
            methods: [POST]
            upstream: demo
            auth: user-jwt
            map_graphql_errors: true
          # AEM persisted queries by name: GET /content/<name>?k=v.
          - path: /content/*
            upstream: content
            auth: user-jwt
            map_graphql_errors: true
          # Stored operations by name: GET /ops/<name>?var=value or POST {"operationName":…}.
          - path: /ops/*
            upstream: demo
            auth: user-jwt
            persisted: only
            map_graphql_errors: true
            # Queries answered from the response cache for 30 s, per user (README, "Response cache").
            cache: {max_age: 30s, stale_while_revalidate: 1m}

        """
        return yaml
    }

    /// `config/operations` under the working directory, as an absolute path, when it exists.
    static func bundledOperationsDirectory() -> String? {
        let directory = FileManager.default.currentDirectoryPath + "/config/operations"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else { return nil }
        return directory
    }

    /// A double-quoted YAML scalar; `${` is doubled so the config loader's environment
    /// substitution leaves the value as written.
    static func yamlQuoted(_ value: String) -> String {
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": quoted += "\\\\"
            case "\"": quoted += "\\\""
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted.replacingOccurrences(of: "${", with: "$${") + "\""
    }
}
