/// Why a document is not strict RFC 8259 JSON, and the byte offset where that was found.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var offset: Int

    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) at byte \(offset)" }

    static let duplicateKeyMessage = "duplicate object key"

    /// The reader refused an object naming a key twice (`rejectDuplicateKeys`).
    public var isDuplicateKey: Bool { message == Self.duplicateKeyMessage }
}
