import Foundation

/// Converts between `Date` and PostgreSQL's ISO timestamp text.
///
/// Hand-written rather than DateFormatter-based: the output format is fixed (connections set
/// DateStyle=ISO and TimeZone=UTC), DateFormatter is slow and only keeps milliseconds, and a
/// plain function is safe to call from any thread.
enum PGTimestamp {
    /// "YYYY-MM-DDTHH:MM:SS.ffffffZ" in UTC.
    static func format(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = Int64(interval.rounded(.down))
        var micros = Int64(((interval - Double(seconds)) * 1_000_000).rounded())
        if micros >= 1_000_000 { seconds += 1; micros -= 1_000_000 }
        let days = floorDiv(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (y, m, d) = civil(fromDays: days)
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T"
            + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
            + ".\(pad(micros, 6))Z"
    }

    /// Parses timestamptz, timestamp (taken as UTC) and date output in ISO style, e.g.
    /// "2026-11-21 05:32:10.123456+00", "2026-11-21 05:32:10+05:30", "2026-11-21".
    /// "infinity" and "-infinity" map to `Date.distantFuture` / `Date.distantPast`.
    /// Returns nil for anything else (including BC dates, which Reelwork never stores).
    static func parse(_ text: String) -> Date? {
        if text == "infinity" { return .distantFuture }
        if text == "-infinity" { return .distantPast }
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4...), scanner.skip("-"),
              let month = scanner.number(digits: 2...2), scanner.skip("-"),
              let day = scanner.number(digits: 2...2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var seconds = days(fromCivil: year, month, day) * 86_400
        var fraction = 0.0
        if scanner.skip(" ") || scanner.skip("T") {
            guard let hour = scanner.number(digits: 2...2), scanner.skip(":"),
                  let minute = scanner.number(digits: 2...2), scanner.skip(":"),
                  let second = scanner.number(digits: 2...2),
                  hour <= 24, minute < 60, second < 61 else { return nil }
            seconds += hour * 3600 + minute * 60 + second
            if scanner.skip(".") {
                let start = scanner.position
                guard let digits = scanner.number(digits: 1...) else { return nil }
                fraction = Double(digits) / pow(10, Double(scanner.position - start))
            }
            if scanner.skip("Z") {
                // UTC
            } else if let sign = scanner.sign() {
                guard let offsetHours = scanner.number(digits: 2...2) else { return nil }
                var offset = offsetHours * 3600
                if scanner.skip(":") {
                    guard let offsetMinutes = scanner.number(digits: 2...2) else { return nil }
                    offset += offsetMinutes * 60
                    if scanner.skip(":") {
                        guard let offsetSeconds = scanner.number(digits: 2...2) else { return nil }
                        offset += offsetSeconds
                    }
                }
                // Local time = UTC + offset, so UTC = local - offset.
                seconds -= sign * offset
            }
        }
        guard scanner.atEnd else { return nil }
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian, day 0 = 1970-01-01).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : (a - b + 1) / b
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// A cursor over ASCII bytes for the timestamp parser.
private struct DigitScanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position == bytes.count }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(character.value) else { return false }
        position += 1
        return true
    }

    /// +1 or -1 if a sign is next.
    mutating func sign() -> Int64? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }

    /// Reads a run of decimal digits whose length is within `digits` (at most 18, so it fits).
    mutating func number(digits: PartialRangeFrom<Int>) -> Int64? {
        number(digits: digits.lowerBound...18)
    }

    mutating func number(digits: ClosedRange<Int>) -> Int64? {
        var value: Int64 = 0
        var count = 0
        while position < bytes.count, (48...57).contains(bytes[position]), count < digits.upperBound {
            value = value * 10 + Int64(bytes[position] - 48)
            position += 1
            count += 1
        }
        return digits.contains(count) ? value : nil
    }
}
