import Foundation

/// One row of a result, with every value in PostgreSQL's text output format.
///
/// Values are copied out of libpq when the result is read, so a row outlives its result and
/// its connection. Columns are looked up by name; if a query returns two columns with the same
/// name, the first one wins (alias them to tell them apart).
public struct PGRow: Sendable {
    /// Column name → position, shared by every row of one result.
    let columns: [String: Int]
    /// nil for SQL NULL.
    let values: [String?]

    /// Builds a row by hand, e.g. for tests of code that maps rows. `values` pairs with `columns`.
    public init(columns: [String], values: [String?]) {
        precondition(columns.count == values.count, "PGRow needs one value per column")
        var index: [String: Int] = [:]
        for (position, name) in columns.enumerated() where index[name] == nil { index[name] = position }
        self.init(columnIndex: index, values: values)
    }

    init(columnIndex: [String: Int], values: [String?]) {
        self.columns = columnIndex
        self.values = values
    }

    /// The column's text, or nil when it is NULL or there is no such column.
    public subscript(_ column: String) -> String? {
        guard let index = columns[column] else { return nil }
        return values[index]
    }

    /// The column's text. Throws if the column is missing or NULL.
    public func string(_ c: String) throws -> String {
        guard let index = columns[c] else {
            let known = columns.sorted { $0.value < $1.value }.map(\.key).joined(separator: ", ")
            throw PostgresError(message: "result has no column \"\(c)\" (columns: \(known))")
        }
        guard let value = values[index] else {
            throw PostgresError(message: "column \"\(c)\" is NULL")
        }
        return value
    }

    /// Throws if the column is missing, NULL or not an integer that fits in `Int`.
    public func int(_ c: String) throws -> Int {
        try convert(c, to: "an integer", Int.init)
    }

    /// nil when the column is missing, NULL or not an integer.
    public func optionalInt(_ c: String) -> Int? { self[c].flatMap { Int($0) } }

    /// Throws if the column is missing, NULL or not a number (accepts NaN and ±Infinity).
    public func double(_ c: String) throws -> Double {
        try convert(c, to: "a number", PGRow.parseDouble)
    }

    /// nil when the column is missing, NULL or not a number.
    public func optionalDouble(_ c: String) -> Double? { self[c].flatMap(PGRow.parseDouble) }

    /// Reads boolean output ("t"/"f"); also accepts "true"/"false".
    public func bool(_ c: String) throws -> Bool {
        try convert(c, to: "a boolean") { text in
            switch text {
            case "t", "true": return true
            case "f", "false": return false
            default: return nil
            }
        }
    }

    public func uuid(_ c: String) throws -> UUID {
        try convert(c, to: "a UUID") { UUID(uuidString: $0) }
    }

    /// Reads timestamptz (any offset), timestamp (taken as UTC) or date output in ISO style.
    public func date(_ c: String) throws -> Date {
        try convert(c, to: "a timestamp", PGTimestamp.parse)
    }

    /// nil when the column is missing, NULL or not a timestamp.
    public func optionalDate(_ c: String) -> Date? { self[c].flatMap(PGTimestamp.parse) }
    public func optionalUUID(_ c: String) -> UUID? { self[c].flatMap(UUID.init(uuidString:)) }

    private func convert<T>(_ c: String, to what: String, _ parse: (String) -> T?) throws -> T {
        let text = try string(c)
        guard let value = parse(text) else {
            throw PostgresError(message: "column \"\(c)\" is not \(what): \"\(text)\"")
        }
        return value
    }

    /// float8 output uses "Infinity"/"-Infinity"/"NaN", which Swift's parser also accepts.
    private static func parseDouble(_ text: String) -> Double? { Double(text) }
}
