/// What the gateway needs from one part's header section (RFC 7578 §4.2, §4.4).
public struct MultipartPartHeaders: Sendable, Equatable {
    /// `Content-Disposition: form-data; name="…"`.
    public var name: String
    /// Present on file parts.
    public var filename: String?
    public var contentType: String?

    public init(name: String, filename: String? = nil, contentType: String? = nil) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
    }

    /// Reads the header lines of a part (CRLF-separated, without the final empty line).
    static func parse(_ block: [UInt8]) -> MultipartPartHeaders? {
        var name: String?
        var filename: String?
        var contentType: String?
        for line in block.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            var line = Array(line)
            guard line.last == UInt8(ascii: "\r") else { return nil }
            line.removeLast()
            if line.isEmpty { continue }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
            let field = line[..<colon].map(ASCII.lowercased)
            let value = Array(line[(colon + 1)...])
            // A repeated field, or a disposition that does not parse whole, is refused: readers
            // disagree on which copy names the part.
            switch String(decoding: field, as: UTF8.self) {
            case "content-disposition":
                let disposition = MediaTypeParameters(value)
                guard name == nil, disposition.isWellFormed, disposition.type == Array("form-data".utf8),
                      let partName = disposition.value(of: "name") else { return nil }
                name = String(decoding: partName, as: UTF8.self)
                filename = disposition.value(of: "filename").map { String(decoding: $0, as: UTF8.self) }
            case "content-type":
                guard contentType == nil else { return nil }
                contentType = String(decoding: value, as: UTF8.self).trimmingSpaces
            default:
                continue
            }
        }
        guard let name else { return nil }
        return MultipartPartHeaders(name: name, filename: filename, contentType: contentType)
    }
}

private extension String {
    var trimmingSpaces: String {
        String(self.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
