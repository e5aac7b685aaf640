import Foundation
import ReelworkCore

/// Reading a result document's values and writing them for people: a missing or null value is
/// "–", never a made-up number.
public enum ResultValues {
    public static func number(_ value: JSONValue?, _ path: String...) -> Double? {
        var current = value
        for key in path { current = current?[key] }
        return current?.number
    }

    public static func text(_ value: JSONValue?, _ path: String...) -> String? {
        var current = value
        for key in path { current = current?[key] }
        if case .string(let s)? = current { return s }
        return nil
    }

    public static func items(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items)? = value { return items }
        return []
    }

    public static let missing = "–"

    /// `value` with `places` decimals and an optional unit, or "–".
    public static func format(_ value: Double?, _ places: Int, _ unit: String = "") -> String {
        guard let value, value.isFinite else { return missing }
        return String(format: "%.\(places)f", value) + unit
    }

    /// The mean of the values present, or nil when there are none.
    public static func mean(_ values: [Double?]) -> Double? {
        let present = values.compactMap { $0 }.filter(\.isFinite)
        return present.isEmpty ? nil : present.reduce(0, +) / Double(present.count)
    }
}
