/// An HTTP-date in its preferred form, IMF-fixdate (RFC 9110 §5.6.7:
/// `Sun, 06 Nov 1994 08:49:37 GMT`), as seconds since the Unix epoch. The obsolete RFC 850 and
/// asctime forms are not read: senders must generate IMF-fixdate, and a value that is not one is
/// treated as absent.
public enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        .map { Array($0.utf8) }
    private static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { Array($0.utf8) }
    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    private static let length = 29

    /// Seconds since 1970-01-01T00:00:00Z, or nil when `value` is not an IMF-fixdate.
    public static func secondsSinceEpoch<Bytes: RandomAccessCollection<UInt8>>(_ value: Bytes) -> Int? {
        let text = Array(value)
        guard text.count == length, days.contains(where: { $0[...] == text[0..<3] }),
              text[3] == UInt8(ascii: ","), text[4] == 0x20, text[7] == 0x20, text[11] == 0x20, text[16] == 0x20,
              text[19] == UInt8(ascii: ":"), text[22] == UInt8(ascii: ":"), text[25...] == Array(" GMT".utf8)[...],
              let day = DecimalDigits.value(of: text[5..<7]), let month = months.firstIndex(where: { $0[...] == text[8..<11] }),
              let year = DecimalDigits.value(of: text[12..<16]), let hour = DecimalDigits.value(of: text[17..<19]),
              let minute = DecimalDigits.value(of: text[20..<22]),
              let second = DecimalDigits.value(of: text[23..<25]),
              day >= 1, day <= daysIn(month: month + 1, year: year), hour < 24, minute < 60, second < 61
        else { return nil }
        return daysSinceEpoch(year: year, month: month + 1, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the civil date (Howard Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
