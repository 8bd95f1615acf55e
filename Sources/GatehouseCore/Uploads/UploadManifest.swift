import GatehouseConfig
import GatehouseGraphQL
import GatehouseHTTP

/// The GraphQL multipart request rules (jaydenseric/graphql-multipart-request-spec) checked part
/// by part as an upload streams, fed by `MultipartParser`: `operations` first, then `map` (a JSON
/// object from file part names to lists of paths into `operations`, at most `max_files` of them,
/// each path naming a `null` the file stands for: `variables.file`, or `0.variables.file` in a
/// batch), then only the files the map names, each at most `max_file_size`. `operations` is held
/// (it is what the route's operation policy reads) and nothing may go upstream before
/// `isReadyToForward`.
struct UploadManifest {
    enum Stage: Equatable {
        case expectingOperations
        case readingOperations
        case expectingMap
        case readingMap
        /// `operations` and `map` are read and checked: files may stream.
        case expectingFile
        case readingFile(name: String, bytes: Int)
        case finished
    }

    /// `operations` and `map` are read whole; bounded so a part without end cannot grow memory.
    static let maxJSONPartBytes = 1024 * 1024

    let limits: UploadsConfig
    private(set) var stage: Stage = .expectingOperations
    private(set) var operations: [UInt8] = []
    /// `operations` parsed, once its part has ended: what the map's paths point into.
    private(set) var operationsValue: JSONValue?
    private var mapBytes: [UInt8] = []
    /// File part names the map announced, and those already received.
    private(set) var announcedFiles: [String] = []
    private var receivedFiles: Set<String> = []

    init(limits: UploadsConfig) {
        self.limits = limits
    }

    var isReadyToForward: Bool {
        switch stage {
        case .expectingFile, .readingFile, .finished: return true
        default: return false
        }
    }

    // MARK: - Parts

    mutating func partStarted(_ headers: MultipartPartHeaders) -> GatewayError? {
        switch stage {
        case .expectingOperations:
            guard headers.name == "operations" else { return Self.bad("The first part of an upload must be operations.") }
            stage = .readingOperations
        case .expectingMap:
            guard headers.name == "map" else { return Self.bad("The part after operations must be map.") }
            stage = .readingMap
        case .expectingFile:
            guard announcedFiles.contains(headers.name) else {
                return Self.bad("The part \"\(headers.name)\" is not named in the map.")
            }
            guard receivedFiles.insert(headers.name).inserted else {
                return Self.bad("The file part \"\(headers.name)\" appears twice.")
            }
            stage = .readingFile(name: headers.name, bytes: 0)
        case .readingOperations, .readingMap, .readingFile, .finished:
            return Self.bad("The multipart body is out of order.")
        }
        return nil
    }

    mutating func partData(_ data: UnsafeRawBufferPointer) -> GatewayError? {
        switch stage {
        case .readingOperations:
            operations.append(contentsOf: data)
            if operations.count > Self.maxJSONPartBytes { return Self.tooLarge("The operations part is too large.") }
        case .readingMap:
            mapBytes.append(contentsOf: data)
            if mapBytes.count > Self.maxJSONPartBytes { return Self.tooLarge("The map part is too large.") }
        case .readingFile(let name, let bytes):
            let total = bytes + data.count
            if total > limits.maxFileSize { return Self.tooLarge("The file \"\(name)\" is larger than the route accepts.") }
            stage = .readingFile(name: name, bytes: total)
        default:
            break
        }
        return nil
    }

    mutating func partEnded() -> GatewayError? {
        switch stage {
        case .readingOperations:
            guard let value = try? JSONReader.parse(operations), value.objectValue != nil || value.arrayValue != nil else {
                return Self.bad("The operations part is not a JSON object or batch.")
            }
            operationsValue = value
            stage = .expectingMap
        case .readingMap:
            if let refusal = readMap() { return refusal }
            stage = .expectingFile
        case .readingFile:
            stage = .expectingFile
        default:
            break
        }
        return nil
    }

    /// The close delimiter: every file the map named must have come.
    mutating func finished() -> GatewayError? {
        guard stage == .expectingFile else { return Self.bad("The upload ended before its operations and map.") }
        if let missing = announcedFiles.first(where: { !receivedFiles.contains($0) }) {
            return Self.bad("The map names the file \"\(missing)\", which the upload does not carry.")
        }
        stage = .finished
        return nil
    }

    // MARK: - map

    private mutating func readMap() -> GatewayError? {
        guard let value = try? JSONReader.parse(mapBytes, rejectDuplicateKeys: true), let map = value.objectValue else {
            return Self.bad("The map part is not a JSON object.")
        }
        guard map.count <= limits.maxFiles else {
            return Self.tooLarge("The upload carries more files than the route accepts (\(limits.maxFiles)).")
        }
        for (name, paths) in map.members {
            guard !name.isEmpty, let list = paths.arrayValue, !list.isEmpty,
                  list.allSatisfy({ $0.stringValue?.isEmpty == false }) else {
                return Self.bad("The map entry \"\(name)\" must list object paths such as variables.file.")
            }
            for path in list.compactMap(\.stringValue) where operationsValue?.value(atUploadPath: path)?.isNull != true {
                return Self.bad("The map entry \"\(name)\" points at \(path), which is not a null in operations.")
            }
        }
        announcedFiles = map.keys
        return nil
    }

    private static func bad(_ message: String) -> GatewayError { GatewayError(.badRequest, message) }
    private static func tooLarge(_ message: String) -> GatewayError { GatewayError(.payloadTooLarge, message) }
}
