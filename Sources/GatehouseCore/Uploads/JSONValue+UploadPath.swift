import GatehouseGraphQL

/// The object paths of an upload's `map` (`variables.file`, `variables.files.1`, or
/// `0.variables.file` in a batch): dot-separated keys, numbers indexing arrays.
extension JSONValue {
    /// The value `path` names, nil when it leads nowhere.
    func value(atUploadPath path: String) -> JSONValue? {
        var current = self
        for segment in path.split(separator: ".", omittingEmptySubsequences: false) {
            switch current {
            case .object(let object):
                guard let member = object[String(segment)] else { return nil }
                current = member
            case .array(let items):
                guard let index = Int(segment), items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }
}
