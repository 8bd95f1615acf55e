/// One answer of the admin listener: status, content type and body; `allow` is set on a 405
/// (RFC 9110 §15.5.6: the methods the path takes).
struct AdminAnswer: Sendable {
    var status: Int
    var type = "text/plain"
    var body: String
    var allow: String?

    static func json(_ status: Int, _ body: String) -> AdminAnswer {
        AdminAnswer(status: status, type: "application/json", body: body)
    }
}
