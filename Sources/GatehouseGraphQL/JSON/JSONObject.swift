/// A JSON object: its members in document order. Duplicate keys are kept as they were written
/// unless the reader was asked to refuse them; lookups then see the last one, as JavaScript does.
public struct JSONObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    public var members: [(key: String, value: JSONValue)]

    public init(_ members: [(key: String, value: JSONValue)] = []) {
        self.members = members
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.members = elements.map { (key: $0.0, value: $0.1) }
    }

    public var isEmpty: Bool { members.isEmpty }
    public var count: Int { members.count }
    public var keys: [String] { members.map(\.key) }

    /// The value of the last member named `key`; setting replaces it (or appends a new member),
    /// setting nil removes every member of that name.
    public subscript(key: String) -> JSONValue? {
        get {
            for index in members.indices.reversed() where members[index].key == key {
                return members[index].value
            }
            return nil
        }
        set {
            guard let newValue else {
                members.removeAll { $0.key == key }
                return
            }
            if let index = members.lastIndex(where: { $0.key == key }) {
                members[index].value = newValue
            } else {
                members.append((key: key, value: newValue))
            }
        }
    }

    /// Member order matters: two objects are equal when they list the same members in the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for (left, right) in zip(lhs.members, rhs.members)
        where left.key != right.key || left.value != right.value {
            return false
        }
        return true
    }
}
