/// Reads numbers out of job options with messages that name the option and its allowed range.
/// Every number from a client goes through here (or a parser like it) before it is used, so a
/// value such as 1e300 or 2.5 where a whole number is meant is refused, never converted.
public enum OptionReader {
    public static func number(_ value: JSONValue?, name: String, in range: ClosedRange<Double>) throws -> Double {
        guard case .number(let n)? = value, n.isFinite, range.contains(n) else {
            throw ReelworkError.invalidInput("option \(name) must be a number from \(format(range.lowerBound)) to \(format(range.upperBound))")
        }
        return n
    }

    /// A whole number in `range`: 2.5 or 1e300 is refused with the range in the message.
    public static func integer(_ value: JSONValue?, name: String, in range: ClosedRange<Int>) throws -> Int {
        guard case .number(let n)? = value, let whole = Int(exactly: n), range.contains(whole) else {
            throw ReelworkError.invalidInput("option \(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return whole
    }

    public static func positive(_ value: JSONValue?, name: String) throws -> Double {
        guard case .number(let n)? = value, n.isFinite, n > 0 else {
            throw ReelworkError.invalidInput("option \(name) must be a positive number")
        }
        return n
    }

    public static func finite(_ value: JSONValue?, name: String) throws -> Double {
        guard case .number(let n)? = value, n.isFinite else {
            throw ReelworkError.invalidInput("option \(name) must be a number")
        }
        return n
    }

    /// An optional number: absent or null gives nil.
    public static func optionalFinite(_ value: JSONValue?, name: String) throws -> Double? {
        switch value {
        case nil, .null?: return nil
        default: return try finite(value, name: name)
        }
    }

    /// `[x, y]` image coordinates.
    public static func point(_ value: JSONValue?, name: String) throws -> (x: Double, y: Double) {
        guard case .array(let items)? = value, items.count == 2,
              case .number(let x) = items[0], case .number(let y) = items[1], x.isFinite, y.isFinite else {
            throw ReelworkError.invalidInput("option \(name) must be [x, y] image coordinates in pixels")
        }
        return (x, y)
    }

    static func format(_ n: Double) -> String {
        Int(exactly: n).map(String.init) ?? String(n)
    }
}
