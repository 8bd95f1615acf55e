import GatehouseConfig
import GatehouseHTTP
import GatehouseIO
import Testing
@testable import GatehouseCore

/// Where `token_from` finds a token, and what the upstream URL keeps.
@Suite struct TokenLocatorTests {
    static func head(target: String = "/g", _ headers: String = "") -> RequestHead {
        RequestHeads.get(target, headers: headers)
    }

    /// The token found, "malformed", or "absent".
    static func find(_ head: RequestHead, _ sources: [TokenSource]) -> String {
        switch TokenLocator.find(in: head, sources: sources) {
        case .found(let located): String(decoding: head.bytes[located.token], as: UTF8.self)
        case .malformed: "malformed"
        case .absent: "absent"
        }
    }

    // Cookie header -> what `cookie:session` finds
    @Test(arguments: [
        ("Cookie: session=abc.def.ghi\r\n", "abc.def.ghi"),
        ("Cookie: theme=dark; session=tok; lang=en\r\n", "tok"),
        ("Cookie: theme=dark;session=tok\r\n", "tok"),
        ("Cookie: session=\"quoted\"\r\n", "quoted"),
        ("Cookie: mysession=x; session_id=y\r\n", "absent"),
        ("Cookie: a=1\r\nCookie: session=second\r\n", "second"),
        ("Cookie: session=\r\n", "malformed"),
        // A second cookie of the name reaches the upstream with the first: which was verified?
        ("Cookie: session=a; session=b\r\n", "malformed"),
        ("Cookie: session=a\r\nCookie: session=b\r\n", "malformed"),
        ("", "absent"),
    ] as [(String, String)])
    func cookie(headers: String, expected: String) {
        #expect(Self.find(Self.head(headers), [.cookie("session")]) == expected)
    }

    // target -> what `query:access_token` finds, and the query the upstream gets
    @Test(arguments: [
        ("/g?access_token=tok", "tok", ""),
        ("/g?access_token=tok&page=2", "tok", "?page=2"),
        ("/g?page=2&access_token=tok", "tok", "?page=2"),
        ("/g?page=2&access_token=tok&lang=en", "tok", "?page=2&lang=en"),
        ("/g?my_access_token=x&page=1", "absent", "?my_access_token=x&page=1"),
        ("/g?access_token=", "malformed", "?access_token="),
        // Only the verified parameter is cut: a second one (or one the upstream decodes to the
        // name) would reach the upstream unverified.
        ("/g?access_token=tok&access_token=forged", "malformed", "?access_token=tok&access_token=forged"),
        ("/g?access_token=tok&access%5Ftoken=forged", "malformed", "?access_token=tok&access%5Ftoken=forged"),
        ("/g", "absent", ""),
    ] as [(String, String, String)])
    func query(target: String, expected: String, forwarded: String) {
        let head = Self.head(target: target)
        #expect(Self.find(head, [.query("access_token")]) == expected)
        var omitted: Range<Int>? = nil
        if case .found(let located) = TokenLocator.find(in: head, sources: [.query("access_token")]) {
            omitted = located.queryParameter
        }
        var out = ByteBuffer(capacity: 256)
        if let query = head.query {
            head.bytes.withUnsafeBytes { raw in
                ForwardedQuery.write(UnsafeRawBufferPointer(rebasing: raw[query]), queryStart: query.lowerBound,
                                     omitting: omitted, into: &out)
            }
        }
        #expect(String(decoding: out.readable, as: UTF8.self) == forwarded)
        out.release()
    }

    @Test func sourcesAreTriedInOrder() {
        let header = "Authorization: Bearer from-header\r\n"
        let cookie = "Cookie: s=from-cookie\r\n"
        #expect(Self.find(Self.head(target: "/g?page=1", header + cookie), [.header, .query("t")]) == "from-header")
        #expect(Self.find(Self.head(cookie), [.header, .cookie("s")]) == "from-cookie")
        #expect(Self.find(Self.head(target: "/g?t=from-query"), [.header, .query("t")]) == "from-query")
    }

    /// A token in two of the sources: one is verified, both reach the upstream.
    @Test func aTokenInTwoSourcesIsMalformed() {
        let head = Self.head(target: "/g?t=from-query", "Authorization: Bearer from-header\r\nCookie: s=from-cookie\r\n")
        #expect(Self.find(head, [.header, .cookie("s"), .query("t")]) == "malformed")
        #expect(Self.find(head, [.cookie("s"), .header]) == "malformed")
        #expect(Self.find(head, [.query("t"), .header]) == "malformed")
        #expect(Self.find(Self.head(target: "/g?access%5Ftoken=x", "Authorization: Bearer h\r\n"),
                          [.header, .query("access_token")]) == "malformed")
        #expect(Self.find(Self.head("Authorization: Basic dXNlcg==\r\n"), [.header, .cookie("s")]) == "malformed")
    }
}
