/// Header maps (`headers:`, `headers.set:`, `claims_to_headers:`) and header-name lists.
extension ConfigDecoder {
    /// Headers the gateway writes itself: configuring them would corrupt message framing or
    /// contradict what the gateway states about the request.
    static let gatewayManagedHeaders: Set<String> = [
        "connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "proxy-connection",
        "content-length", "host", "x-forwarded-for", "x-forwarded-proto", "x-request-id",
    ]

    /// `Name: value` pairs in file order. Values are never quoted in messages: they are often secrets.
    func headerSettings(_ node: YAMLNode, _ path: String) -> [HeaderSetting]? {
        headerMap(node, path) { value, valuePath in
            guard let text = self.string(value, valuePath) else { return nil }
            guard !HTTPSyntax.containsControlCharacter(text) else {
                self.report(valuePath, "the value contains CR, LF, NUL or another control character (value not shown)",
                            at: value.mark)
                return nil
            }
            return text
        }
    }

    /// `Header-Name: claim` pairs for `claims_to_headers`.
    func claimHeaders(_ node: YAMLNode, _ path: String) -> [HeaderSetting]? {
        headerMap(node, path) { value, valuePath in self.nonEmptyString(value, valuePath) }
    }

    /// A mapping from header names (each valid, none twice in any case) to values `read` accepts;
    /// nil when any entry was refused.
    private func headerMap(_ node: YAMLNode, _ path: String,
                           value read: (YAMLNode, String) -> String?) -> [HeaderSetting]? {
        guard var map = mapping(node, path) else { return nil }
        var settings: [HeaderSetting] = []
        var allRead = true
        var seen: [String: String] = [:]
        for entry in map.takeAll() {
            let entryPath = path.appendingKey(entry.key)
            guard headerName(entry.key, entryPath, at: entry.keyMark, seen: &seen),
                  let value = read(entry.value, entryPath) else {
                allRead = false
                continue
            }
            settings.append(HeaderSetting(name: entry.key, value: value))
        }
        map.finish()
        return allRead ? settings : nil
    }

    /// A list of header names (`headers.remove`).
    func headerNames(_ node: YAMLNode, _ path: String) -> [String]? {
        list(node, path) { item, itemPath in
            guard let name = self.string(item, itemPath) else { return nil }
            guard HTTPSyntax.isToken(name) else {
                self.report(itemPath, "\"\(name)\" is not a valid header name", at: item.mark)
                return nil
            }
            return name
        }
    }

    // MARK: - One header name

    /// Checks a configured header name: a token, not managed by the gateway, not repeated in
    /// another case in the same map.
    private func headerName(_ name: String, _ path: String, at mark: YAMLMark, seen: inout [String: String]) -> Bool {
        guard HTTPSyntax.isToken(name) else {
            report(path, "\"\(name)\" is not a valid header name", at: mark)
            return false
        }
        let lowercased = name.lowercased()
        if Self.gatewayManagedHeaders.contains(lowercased) {
            report(path, "\(name) is set by the gateway and cannot be configured", at: mark)
            return false
        }
        if let first = seen[lowercased] {
            report(path, "same header as \(first) (header names are case-insensitive)", at: mark)
            return false
        }
        seen[lowercased] = name
        return true
    }
}
