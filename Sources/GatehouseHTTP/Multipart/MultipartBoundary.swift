/// The `boundary` parameter of a `multipart/form-data` Content-Type (RFC 2046 §5.1.1, RFC 7578).
public enum MultipartBoundary {
    /// RFC 2046 §5.1.1: 1 to 70 characters.
    public static let maxLength = 70
    static let formDataType = "multipart/form-data"

    /// Whether the media type is `multipart/` anything (the gateway refuses those off upload routes).
    /// Checked on every request with a body type, so without allocating.
    public static func isMultipart(_ contentType: some Collection<UInt8>) -> Bool {
        contentType.count >= multipartPrefix.count
            && zip(contentType, multipartPrefix).allSatisfy { ASCII.lowercased($0) == $1 }
    }

    private static let multipartPrefix = Array("multipart/".utf8)

    /// The boundary of a `multipart/form-data` type, quoted or not; nil for any other type, a
    /// missing or malformed boundary, or parameters that do not parse whole or name one twice:
    /// parsers disagree on which `boundary` of two counts, and a body built for both hides one
    /// request inside another.
    public static func formData(_ contentType: some Collection<UInt8>) -> [UInt8]? {
        let text = Array(contentType)
        let parameters = MediaTypeParameters(text)
        guard parameters.isWellFormed, parameters.type == Array(formDataType.utf8),
              let boundary = parameters.value(of: "boundary"),
              (1...maxLength).contains(boundary.count), boundary.last != UInt8(ascii: " ") else { return nil }
        return boundary
    }
}

/// A media type split into its lowercased `type/subtype` and `;name=value` parameters.
struct MediaTypeParameters {
    var type: [UInt8] = []
    var parameters: [(name: [UInt8], value: [UInt8])] = []
    /// Every byte read as a parameter, and no parameter named twice (in any case).
    private(set) var isWellFormed = false

    init(_ text: [UInt8]) {
        var cursor = HeaderParameterCursor(text)
        type = cursor.token().map(ASCII.lowercased)
        while cursor.skipSeparator() {
            guard let (name, value) = cursor.parameter() else { return }
            let lowercased = name.map(ASCII.lowercased)
            if parameters.contains(where: { $0.name == lowercased }) { return }
            parameters.append((lowercased, value))
        }
        cursor.skipWhitespace()
        isWellFormed = cursor.index == text.count
    }

    func value(of name: String) -> [UInt8]? {
        let wanted = Array(name.utf8)
        return parameters.first { $0.name == wanted }?.value
    }
}
