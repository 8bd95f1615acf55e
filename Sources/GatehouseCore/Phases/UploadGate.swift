import GatehouseHTTP

/// Multipart bodies (GraphQL uploads) at the route phase: `multipart/*` is accepted only on routes
/// with `uploads`, and there only with a header a browser cannot send cross-site without a
/// preflight (`Apollo-Require-Preflight` or `X-Apollo-Operation-Name`), since a plain HTML form
/// can post `multipart/form-data` anywhere (the CSRF rule Apollo Server applies). An admitted
/// upload gets its `UploadStream`, which checks the body as it streams.
enum UploadGate {
    static func check(_ exchange: Exchange, _ route: CompiledRoute) -> GatewayError? {
        let head = exchange.head
        // Every request with a Content-Type passes here: compared in place, without a copy.
        guard let type = head.headerValue(named: HeaderNames.contentType),
              head.bytes.withUnsafeBytes({
                  HeaderNames.asciiCaseInsensitiveHasPrefix(UnsafeRawBufferPointer(rebasing: $0[type]), "multipart/")
              }) else { return nil }
        guard let limits = route.config.uploads else {
            return GatewayError(.badRequest, "Multipart request bodies are accepted only on upload routes.")
        }
        guard head.headerValue(named: "apollo-require-preflight") != nil
                || head.headerValue(named: "x-apollo-operation-name") != nil else {
            return GatewayError(.badRequest,
                                "A multipart request must carry Apollo-Require-Preflight or X-Apollo-Operation-Name.")
        }
        guard let boundary = MultipartBoundary.formData(head.bytes[type]) else {
            return GatewayError(.badRequest, "An upload must be multipart/form-data with a boundary.")
        }
        exchange.upload = UploadStream(boundary: boundary, limits: limits)
        return nil
    }
}
