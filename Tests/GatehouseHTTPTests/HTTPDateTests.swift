import Testing
@testable import GatehouseHTTP

/// `HTTPDate`: IMF-fixdate to seconds since the epoch; every other text is not a date.
@Test(arguments: [
    ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
    ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777),  // RFC 9110's own example
    ("Tue, 29 Feb 2000 23:59:59 GMT", 951_868_799),
    ("Wed, 21 Oct 2099 07:28:00 GMT", 4_096_250_880),
    ("Fri, 31 Dec 1999 23:59:60 GMT", 946_684_800),  // a leap second reads as the next second
] as [(String, Int)])
func readsIMFFixdates(_ text: String, _ seconds: Int) {
    #expect(HTTPDate.secondsSinceEpoch(Array(text.utf8)) == seconds)
}

@Test(arguments: [
    "", "120", "-5",
    "Sunday, 06-Nov-94 08:49:37 GMT",  // RFC 850, obsolete
    "Sun Nov  6 08:49:37 1994",  // asctime, obsolete
    "Sun, 06 Nov 1994 08:49:37 UTC", "sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT",
    "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT ",
    "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 00 Nov 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 19x4 08:49:37 GMT",
])
func refusesEverythingElse(_ text: String) {
    #expect(HTTPDate.secondsSinceEpoch(Array(text.utf8)) == nil)
}
