import Foundation

/// Any JSON value, for free-form fields (job options, sport results) that pass through unchanged.
public enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let n):
            if n.rounded() == n, abs(n) < 1e15 { try c.encode(Int64(n)) } else { try c.encode(n) }
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    public static let emptyObject = JSONValue.object([:])

    /// The number, if this is one.
    public var number: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// Levels of nesting: 1 for a scalar, one more for each array or object around it.
    public var depth: Int {
        switch self {
        case .array(let items): return 1 + (items.map(\.depth).max() ?? 0)
        case .object(let fields): return 1 + (fields.values.map(\.depth).max() ?? 0)
        default: return 1
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// Converts an `Encodable` value (e.g. a stage's result struct) into a JSONValue.
    public static func from<T: Encodable>(_ value: T) throws -> JSONValue {
        try ReelworkJSON.decoder.decode(JSONValue.self, from: ReelworkJSON.encoder.encode(value))
    }

    /// Compact JSON text, with sorted keys (stable for hashing and comparing); "null" for a value
    /// JSON cannot hold (a NaN or infinite number): use `encodedText()` where that must be an error.
    public func jsonString() -> String {
        (try? encodedText()) ?? "null"
    }

    /// Compact JSON text with sorted keys; throws for a NaN or infinite number.
    public func encodedText() throws -> String {
        String(decoding: try ReelworkJSON.encoder.encode(self), as: UTF8.self)
    }
}

/// One JSON configuration for the whole project: ISO-8601 dates with fractions, sorted keys.
public enum ReelworkJSON {
    /// Ids come out lower case (`LowercaseIDJSONEncoder`).
    public static let encoder: JSONEncoder = {
        let e = LowercaseIDJSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(formatDate(date))
        }
        return e
    }()

    public static let prettyEncoder: JSONEncoder = {
        let e = LowercaseIDJSONEncoder()
        e.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(formatDate(date))
        }
        return e
    }()

    public static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .custom { decoder in
            let c = try decoder.singleValueContainer()
            let text = try c.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "not an ISO-8601 date: \(text)")
            }
            return date
        }
        return d
    }()

    public static func formatDate(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: true).timeSeparator(.colon).timeZone(separator: .omitted))
    }

    public static func parseDate(_ text: String) -> Date? {
        if let d = try? Date(text, strategy: .iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: true).timeSeparator(.colon).timeZone(separator: .omitted)) { return d }
        return try? Date(text, strategy: .iso8601)
    }
}
