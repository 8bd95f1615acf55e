/// `routes[i].uploads:` — the route accepts GraphQL multipart requests (file uploads), streamed.
public struct UploadsConfig: Sendable, Equatable {
    public var maxFiles = 10
    public var maxFileSize = 100 * 1024 * 1024

    public init() {}

    public init(maxFiles: Int, maxFileSize: Int) {
        self.maxFiles = maxFiles
        self.maxFileSize = maxFileSize
    }
}
