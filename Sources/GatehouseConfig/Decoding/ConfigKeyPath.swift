/// Key paths as `gatehouse check` prints them: `server.listen`, `routes[0].upstream`,
/// `upstreams.app.headers.X-Service-Token`. The root is the empty path.
extension String {
    func appendingKey(_ key: String) -> String {
        isEmpty ? key : "\(self).\(key)"
    }

    func appendingIndex(_ index: Int) -> String {
        "\(self)[\(index)]"
    }
}
