import Foundation

/// The typed rows a sport's result holds (bowling shots, tennis swings): one definition of the
/// columns, used to write the PostgreSQL table, to read it back, and to name the CSV columns.
///
/// Each sport defines its own in its module and names it in its plug-in (`SportPlugin.table`); a
/// migration creates its PostgreSQL table. The store writes the rows in the result's transaction
/// without linking any sport: whoever stores a result passes the table (the worker asks
/// `SportRegistry.table(for:)`), and a test holds every plug-in's table to the migrations' columns.
///
/// CSV headers and JSON keys are the seeds' field names; SQL columns are their snake_case forms.
public struct ResultTable: Sendable {
    public enum ColumnType: Sendable {
        case integer, number, text
        /// true or false (a basketball shot's `made`, an arrow's `isXRing`); the CSV shows "true" or "false".
        case boolean
        /// A JSON array of `{code, message}` flags; the CSV shows the codes joined by ";".
        case flags
    }

    public struct Column: Sendable {
        /// The CSV header: the seed's field name.
        public let name: String
        /// The key path in a row's JSON (`["keyFrameTimes", "contact"]`).
        public let path: [String]
        public let sqlName: String
        public let type: ColumnType

        public init(_ name: String, _ type: ColumnType, path: [String]? = nil) {
            self.name = name
            self.path = path ?? [name]
            self.sqlName = Self.snakeCase(name)
            self.type = type
        }

        public static func snakeCase(_ name: String) -> String {
            var out = ""
            for character in name {
                if character.isUppercase { out += "_" + character.lowercased() } else { out.append(character) }
            }
            return out
        }

        /// The value at `path` in a row's JSON; nil when absent or null.
        public func value(in row: JSONValue) -> JSONValue? {
            var value: JSONValue? = row
            for key in path { value = value?[key] }
            if value == .null { return nil }
            return value
        }
    }

    /// The PostgreSQL table.
    public let sqlTable: String
    /// Where the rows are in the result document (`result.shots`).
    public let resultKey: String
    /// The row number's column (first column, 1-based).
    public let numberColumn: String
    public let columns: [Column]
    /// Whether each row's `trajectory` is stored too (outside the CSV, compacted to one array per point).
    public var storesTrajectory = false

    public init(sqlTable: String, resultKey: String, numberColumn: String, columns: [Column], storesTrajectory: Bool = false) {
        (self.sqlTable, self.resultKey, self.numberColumn, self.columns) = (sqlTable, resultKey, numberColumn, columns)
        self.storesTrajectory = storesTrajectory
    }

    /// The rows of a result document (`result[resultKey]`), or none.
    public func rows(in result: JSONValue) -> [JSONValue] {
        if case .array(let rows)? = result[resultKey] { return rows }
        return []
    }

    /// The rows of a document shaped like a result (a confirmed version's) as CSV, headed by the
    /// columns' names: the same cells the stored rows give.
    public func csv(rowsOf document: JSONValue) -> String {
        CSV.render(header: columns.map(\.name), rows: rows(in: document).map(cells(of:)))
    }

    /// A row as CSV cells, from its JSON.
    public func cells(of row: JSONValue) -> [String] {
        cells(columns.map { $0.value(in: row) })
    }

    /// CSV cells from one value per column (nil: empty cell).
    public func cells(_ values: [JSONValue?]) -> [String] {
        zip(columns, values).map { column, value in
            guard let value else { return "" }
            switch (column.type, value) {
            case (.flags, .array(let flags)):
                return flags.compactMap { flag -> String? in
                    if case .string(let code)? = flag["code"] { return code }
                    if case .string(let code) = flag { return code }
                    return nil
                }.joined(separator: ";")
            case (_, .number(let n)): return CSV.number(n)
            case (_, .string(let s)): return s
            case (_, .bool(let b)): return b ? "true" : "false"
            default: return ""
            }
        }
    }

    /// The CSV text of a result document's rows.
    public func csv(from result: JSONValue) -> String {
        CSV.render(header: columns.map(\.name), rows: rows(in: result).map { cells(of: $0) })
    }
}

/// RFC 4180 CSV: comma-separated, CRLF line ends, fields quoted when they hold a comma, quote or line break.
/// Cells a spreadsheet would run as a formula are neutralised (OWASP, "CSV injection").
public enum CSV {
    public static func render(header: [String], rows: [[String]]) -> String {
        ([header] + rows).map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }

    static func field(_ value: String) -> String {
        let safe = neutralized(value)
        guard safe.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return safe }
        return "\"" + safe.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A cell starting with `=`, `+`, `@`, a tab or a carriage return, or with `-` when it is not a
    /// number, gets a leading `'`: spreadsheets then show it as text instead of evaluating it
    /// (`=HYPERLINK(…)`, `@SUM(…)`, `-2+3`). Negative numbers stay numbers.
    static func neutralized(_ value: String) -> String {
        switch value.unicodeScalars.first {
        case "="?, "+"?, "@"?, "\t"?, "\r"?:
            return "'" + value
        case "-"? where Double(value)?.isFinite != true:
            return "'" + value
        default:
            return value
        }
    }

    /// Numbers as the JSON shows them: integers without ".0", others in Swift's shortest form.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
