import GatehouseGraphQL
import Synchronization

/// Admin `POST /cache/purge`: `{}` drops everything, `{"route":"/ops/*"}` one route's entries,
/// `{"operation":"name"}` one operation's; the answer is `{"purged":N}`.
enum CachePurgeRequest {
    /// Status, content type and body for the admin listener.
    static func answer(body: [UInt8], cache: ResponseCache = .process) -> (Int, String, String) {
        let filter: CachePurgeFilter
        switch self.filter(body) {
        case .success(let parsed): filter = parsed
        case .failure(let message): return (400, "application/json", errorBody(message))
        }
        let purged = Mutex<Int?>(nil)
        cache.purge(filter) { count in purged.withLock { $0 = count } }
        guard let count = purged.withLock({ $0 }) else {
            // A store that answers later: the purge runs, its count is not known yet.
            return (202, "application/json", "{\"purging\":true}\n")
        }
        return (200, "application/json", "{\"purged\":\(count)}\n")
    }

    enum Failure: Error { case invalid(String) }

    static func filter(_ body: [UInt8]) -> Result<CachePurgeFilter, Failure> {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .success(.all) }
        guard let value = try? JSONReader.parse(body), let object = value.objectValue else {
            return .failure(.invalid("the body must be a JSON object"))
        }
        switch (object["route"], object["operation"], object.count) {
        case (nil, nil, 0):
            return .success(.all)
        case (.string(let route)?, nil, 1):
            return .success(.route(route))
        case (nil, .string(let operation)?, 1):
            return .success(.operations([operation]))
        default:
            return .failure(.invalid("expected {}, {\"route\":\"/path\"} or {\"operation\":\"name\"}"))
        }
    }

    private static func errorBody(_ failure: Failure) -> String {
        guard case .invalid(let message) = failure else { return "{}\n" }
        var out: [UInt8] = Array("{\"error\":".utf8)
        JSONValue.appendQuoted(message, to: &out)
        out.append(contentsOf: "}\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }
}
