import Foundation

/// When a clip was filmed, as its container says: QuickTime's `com.apple.quicktime.creationdate`
/// (a phone's local time with its offset), else the `creation_time` tag libavformat reads from an
/// MP4/MOV header or a Matroska file. Cameras without a clock write the format's zero date
/// (1904 or 1970), which says nothing, so dates before `earliest` count as none.
enum RecordingDate {
    /// The tags, most trustworthy first.
    static let tags = ["com.apple.quicktime.creationdate", "creation_time"]
    /// 1990-01-01 UTC: no digital video clip is older.
    static let earliest = Date(timeIntervalSince1970: 631_152_000)

    /// The first of `tags` that `value(tag)` gives and that reads as a real date.
    static func find(_ value: (String) -> String?) -> Date? {
        for tag in tags {
            if let text = value(tag), let date = parse(text), date >= earliest { return date }
        }
        return nil
    }

    /// ISO 8601 as containers write it: "2024-05-14T09:30:12.000000Z", "2024-05-14T11:30:12+0200",
    /// "2024-05-14 09:30:12" (UTC when no zone is given).
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "T")
        for fraction in ["", ".SSS", ".SSSSSS"] {
            for zone in ["XXXXX", "XX", ""] {
                if let date = formatter("yyyy-MM-dd'T'HH:mm:ss" + fraction + zone).date(from: trimmed) { return date }
            }
        }
        return nil
    }

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }
}
