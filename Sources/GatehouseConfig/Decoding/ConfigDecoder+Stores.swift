/// `stores:` — shared state outside the process, by name. Limits and the cache refer to a store
/// by its name; `memory` is built in and cannot be redefined.
extension ConfigDecoder {
    /// Stores in file order, plus every declared name (also those refused for another reason,
    /// so a limit naming one does not get a second, misleading "unknown store").
    func stores(_ node: YAMLNode, _ path: String) -> (stores: [StoreConfig], names: Set<String>) {
        guard var map = mapping(node, path) else { return ([], []) }
        var stores: [StoreConfig] = []
        var names: Set<String> = []
        for entry in map.takeAll() {
            names.insert(entry.key)
            let entryPath = path.appendingKey(entry.key)
            var nameIsValid = checkName(entry.key, entryPath, at: entry.keyMark)
            if entry.key == RateLimitConfig.memoryStore {
                report(entryPath, "\"memory\" is the built-in per-process store; give a shared store another name",
                       at: entry.keyMark)
                nameIsValid = false
            }
            if let store = store(named: entry.key, entry.value, entryPath), nameIsValid {
                stores.append(store)
            }
        }
        return (stores, names)
    }

    // MARK: - One store

    private func store(named name: String, _ node: YAMLNode, _ path: String) -> StoreConfig? {
        guard var map = mapping(node, path) else { return nil }
        var isValid = true
        let type = map.required("type", "required; redis") { self.string($0, $1) }
        if let type, type != StoreConfig.redisType {
            report(path.appendingKey("type"), "unknown store type \"\(type)\" (expected redis)", at: map.mark)
            isValid = false
        }
        let url = map.required("url", "required; e.g. redis://127.0.0.1:6379/0") {
            self.parsed($0, $1, expected: "a redis:// URL", RedisURLSyntax.parse)
        }
        // An empty password (`${REDIS_PASSWORD:-}` with the variable unset) means none.
        let password = optionalValue(&map, "password", isValid: &isValid) { self.string($0, $1) }
        let prefix = optionalValue(&map, "prefix", isValid: &isValid) { self.string($0, $1) }
        let timeout = optionalValue(&map, "timeout", isValid: &isValid, positiveDuration)
        let policy = optionalValue(&map, "on_failure", isValid: &isValid, failurePolicy)
        map.finish()

        guard isValid, type != nil, let url else { return nil }
        return StoreConfig(name: name, url: url, password: password.flatMap { $0.isEmpty ? nil : $0 },
                           prefix: prefix ?? StoreConfig.defaultPrefix, timeout: timeout ?? StoreConfig.defaultTimeout,
                           onFailure: policy ?? .local)
    }

    /// An optional key's value; `isValid` turns false when the key is there but refused.
    private func optionalValue<T>(_ map: inout MappingReader, _ key: String, isValid: inout Bool,
                                  _ read: (YAMLNode, String) -> T?) -> T? {
        guard map.has(key) else { return nil }
        let value = map.value(key, read)
        if value == nil { isValid = false }
        return value
    }

    private func failurePolicy(_ node: YAMLNode, _ path: String) -> StoreConfig.FailurePolicy? {
        guard let text = string(node, path) else { return nil }
        guard let policy = StoreConfig.FailurePolicy(rawValue: text) else {
            report(path, "unknown on_failure \"\(text)\" (expected local, open or closed)", at: node.mark)
            return nil
        }
        return policy
    }

    // MARK: - References

    /// What a `store:` key may name: `memory` or a store of the `stores:` section.
    func checkStoreReference(_ reference: RouteReference, declared: Set<String>) {
        guard reference.name != RateLimitConfig.memoryStore, !declared.contains(reference.name) else { return }
        let known = ([RateLimitConfig.memoryStore] + declared.sorted()).map { "\"\($0)\"" }.joined(separator: ", ")
        report(reference.path, "unknown store \"\(reference.name)\" (expected \(known))", at: reference.mark)
    }
}
