/// The endpoint series of `/metrics`.
extension UpstreamStatusBoard {
    func renderPrometheus(into out: inout String, escape: (String) -> String) {
        let names = upstreamNames
        let endpointsByUpstream = names.map { ($0, endpoints(of: $0)) }

        func perEndpoint(_ metric: String, type: String, help: String, _ value: (EndpointStatus) -> Int) {
            out += "# HELP \(metric) \(help)\n# TYPE \(metric) \(type)\n"
            for (name, endpoints) in endpointsByUpstream {
                for endpoint in endpoints {
                    out += "\(metric){upstream=\"\(escape(name))\",endpoint=\"\(escape(endpoint.label))\"} \(value(endpoint))\n"
                }
            }
        }

        perEndpoint("gatehouse_upstream_endpoint_healthy", type: "gauge",
                    help: "Whether active health checks pass (1) or fail (0).") { $0.healthy ? 1 : 0 }
        out += "# HELP gatehouse_upstream_retries_total Requests sent again, by upstream and reason.\n"
        out += "# TYPE gatehouse_upstream_retries_total counter\n"
        for name in names {
            for (reason, count) in retries(of: name) {
                out += "gatehouse_upstream_retries_total{upstream=\"\(escape(name))\",reason=\"\(reason)\"} \(count)\n"
            }
        }
        perEndpoint("gatehouse_upstream_ejections_total", type: "counter",
                    help: "Passive ejections of failing endpoints.") { $0.ejections }
    }
}
