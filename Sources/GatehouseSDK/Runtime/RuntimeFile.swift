/// A Swift source file of the generated package that does not depend on the schema: the client,
/// its transport, errors, fetch policies and JSON values. Written out as it is.
struct RuntimeFile {
    var name: String
    var contents: String

    /// Every runtime file, in the order they are written.
    static let all: [RuntimeFile] = [connector, fetchPolicy, gatehouseError, client, transport,
                                      queryParameters, jsonCoding, jsonValue, indirectInput]
}
