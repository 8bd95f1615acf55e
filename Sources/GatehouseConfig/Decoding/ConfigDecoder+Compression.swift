/// `server.compression:` — gzip for client responses, and the inflate limit for upstream bodies.
extension ConfigDecoder {
    func compression(_ node: YAMLNode, _ path: String) -> CompressionConfig? {
        guard var map = mapping(node, path) else { return nil }
        var compression = CompressionConfig()

        if let enabled = map.value("enabled", bool) { compression.enabled = enabled }
        if let level = map.value("level", { self.integer($0, $1, in: 1...9) }) { compression.level = level }
        if let bytes = map.value("min_size", { self.size($0, $1, minimum: 0) }) { compression.minSize = bytes }
        if let types = map.value("types", mediaTypes) { compression.types = types }
        if let bytes = map.value("max_inflated_size", { self.size($0, $1, minimum: 1) }) {
            compression.maxInflatedSize = bytes
        }

        map.finish()
        return compression
    }

    // MARK: - types

    /// A non-empty list of distinct media types; an empty list would leave compression on while
    /// compressing nothing, so `enabled: false` is the way to say that.
    private func mediaTypes(_ node: YAMLNode, _ path: String) -> [String]? {
        guard let types = list(node, path, { item, itemPath -> String? in
            guard let type = self.nonEmptyString(item, itemPath) else { return nil }
            if let problem = MediaTypeSyntax.problem(in: type) {
                self.report(itemPath, problem.message, at: item.mark)
                return nil
            }
            return type
        }) else { return nil }
        guard !types.isEmpty else {
            report(path, "list at least one media type, or set enabled: false", at: node.mark)
            return nil
        }
        if let repeated = types.enumerated().first(where: { types[..<$0.offset].contains($0.element) }) {
            report(path.appendingIndex(repeated.offset), "\"\(repeated.element)\" is listed twice", at: node.mark)
            return nil
        }
        return types
    }
}
