import Foundation

/// Reads an HTTP `Retry-After` header (RFC 9110 §10.2.3): a number of seconds, or an HTTP date.
public enum RetryAfter {
    /// Seconds from `now` the header asks to wait (0 for a date in the past), or nil for a value
    /// that is neither form (it is then ignored).
    public static func seconds(_ value: String, now: Date = Date()) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Digits only; a number too long for Int is simply very long.
            return TimeInterval(Int(text) ?? Int.max)
        }
        // Formatters are made here, not shared: a Retry-After is rare, and a shared DateFormatter
        // is not safe to use from several threads.
        for pattern in datePatterns {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = pattern
            if let date = formatter.date(from: text.split(separator: " ").joined(separator: " ")) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }

    /// IMF-fixdate, and the two obsolete forms recipients must still accept.
    private static let datePatterns = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'",   // Sun, 06 Nov 1994 08:49:37 GMT
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",    // Sunday, 06-Nov-94 08:49:37 GMT
        "EEE MMM d HH:mm:ss yyyy",           // Sun Nov  6 08:49:37 1994
    ]
}
