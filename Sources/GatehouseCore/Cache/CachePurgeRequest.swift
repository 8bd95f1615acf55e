import GatehouseGraphQL

/// Admin `POST /cache/purge`: `{}` drops everything, `{"route":"/ops/*"}` one route's entries,
/// `{"operation":"name"}` one operation's; the answer is `{"purged":N}`, or 503 when the cache's
/// store could not be reached. The purge runs on a worker's loop, where the worker's store
/// connections live; with a Redis store it drops the entries every replica sees.
enum CachePurgeRequest {
    static let path = "/cache/purge"

    static func start(body: [UInt8], on worker: Worker?, cache: ResponseCache = .process,
                      reply: @escaping @Sendable (AdminAnswer) -> Void) {
        let filter: CachePurgeFilter
        switch self.filter(body) {
        case .success(let parsed): filter = parsed
        case .failure(let message): return reply(.json(400, errorBody(message)))
        }
        guard let worker else { return reply(unreachable) }
        worker.loop.post { _ in
            cache.purge(filter, via: worker.stores) { count in
                reply(count.map { AdminAnswer.json(200, "{\"purged\":\($0)}\n") } ?? unreachable)
            }
        }
    }

    private static let unreachable = AdminAnswer.json(503, errorBody(.invalid("the cache store could not be reached")))

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
