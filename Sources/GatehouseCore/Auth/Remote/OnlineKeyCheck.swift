import CLinux
import GatehouseConfig
import GatehouseIO

/// One discovery-and-keys fetch for `gatehouse check --online`, run to completion on a private
/// event loop on the calling thread.
enum OnlineKeyCheck {
    /// nil when the keys were fetched and usable; otherwise what went wrong.
    static func run(_ source: RemoteKeySource) -> String? {
        let loop = EventLoop(name: "gatehouse-check")
        var problem: String?
        // Every fetch the check starts (discovery, then keys), kept to be let go of at the end.
        var fetches: [KeyFetch] = []
        func get(_ url: KeyURL, _ then: @escaping (FetchedDocument) -> Void) {
            fetches.append(KeyFetch(url: url, tlsContext: url.scheme == .https ? source.tlsContext : nil,
                                    loop: loop, timeout: KeyRefresher.fetchTimeout) { result in
                switch result {
                case .success(let document): then(document)
                case .failure(let error):
                    problem = "cannot fetch \(url): \(error.description)"
                    loop.stop()
                }
            })
        }
        func keys(_ url: KeyURL) {
            get(url) { document in
                if case .failure(let error) = KeyDocuments.keySet(document, algorithms: source.algorithms) {
                    problem = "\(url): \(error.description)"
                }
                loop.stop()
            }
        }
        switch source.config.location {
        case .url(let url): keys(url)
        case .discovery(let url):
            get(url) { document in
                switch KeyDocuments.jwksURI(fromDiscovery: document, documentURL: url, issuer: source.config.issuer) {
                case .success(let jwksURL): keys(jwksURL)
                case .failure(let error):
                    problem = "discovery \(url): \(error.description)"
                    loop.stop()
                }
            }
        }
        // A fetch that failed at once (unresolvable host) stopped the loop before it ran.
        if problem == nil { loop.run() }
        // A fetch's completion holds these closures, which hold `fetches`, and the loop holds the
        // fetch: let go of both, or the cycle outlives the check.
        fetches.removeAll()
        loop.releaseEverything()
        return problem
    }
}
