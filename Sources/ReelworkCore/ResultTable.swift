import Foundation

/// The typed rows a sport's result holds (bowling shots, tennis swings): one definition of the
/// columns, used to write the PostgreSQL table, to read it back, and to name the CSV columns.
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

        init(_ name: String, _ type: ColumnType, path: [String]? = nil) {
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

    /// The table for `sport`, if its results have one. The tables are here rather than in the sport
    /// modules because each is part of the database schema (a migration creates it) and the store
    /// writes it in the result's transaction without linking any sport; a sport's plug-in names its
    /// own (`SportPlugin.table`), and a test holds the two to the same table.
    public static func forSport(_ sport: Sport) -> ResultTable? {
        switch sport {
        case .bowling: return .bowlingShots
        case .tennis: return .tennisSwings
        case .archery: return .archeryArrows
        case .basketball: return .basketballShots
        }
    }

    /// Seed 000's `Shot` fields the analysis produces.
    public static let bowlingShots = ResultTable(sqlTable: "bowling_shots", resultKey: "shots", numberColumn: "shotNumber", columns: [
        Column("shotNumber", .integer), Column("startTime", .number), Column("endTime", .number),
        Column("launchSpeed", .number), Column("impactSpeed", .number),
        Column("foulLineBoard", .number), Column("arrowBoard", .number),
        Column("breakpointBoard", .number), Column("breakpointDistance", .number),
        Column("pocketBoard", .number), Column("pocketOffset", .number), Column("entryAngle", .number),
        Column("revRate", .number), Column("revCategory", .text), Column("strikeProbability", .number),
        Column("result", .text), Column("confidence", .number), Column("flags", .flags),
    ], storesTrajectory: true)

    /// Seed 004's swing fields: the type, the window, `keyFrameTimes` and `SegmentMetrics`.
    public static let tennisSwings = ResultTable(sqlTable: "tennis_swings", resultKey: "swings", numberColumn: "swingNumber", columns: [
        Column("swingNumber", .integer), Column("trackId", .integer), Column("type", .text),
        Column("startTime", .number), Column("endTime", .number), Column("confidence", .number),
        Column("preparationTime", .number, path: ["keyFrameTimes", "preparation"]),
        Column("backswingTime", .number, path: ["keyFrameTimes", "backswing"]),
        Column("contactTime", .number, path: ["keyFrameTimes", "contact"]),
        Column("followThroughTime", .number, path: ["keyFrameTimes", "followThrough"]),
        Column("recoveryTime", .number, path: ["keyFrameTimes", "recovery"]),
        Column("peakWristSpeed", .number, path: ["metrics", "peakWristSpeed"]),
        Column("peakWristSpeedUnit", .text, path: ["metrics", "peakWristSpeedUnit"]),
        Column("shoulderTurn", .number, path: ["metrics", "shoulderTurn"]),
        Column("contactHeight", .number, path: ["metrics", "contactHeight"]),
        Column("followThrough", .number, path: ["metrics", "followThrough"]),
        Column("trackingQuality", .number, path: ["metrics", "trackingQuality"]),
    ])

    /// Seed 002's `DetectedArrow` fields, scored: one row per arrow of the detected end (the
    /// confirmed versions are stored apart, `archery_confirmations`). `arrivalTime` is a video's only.
    public static let archeryArrows = ResultTable(sqlTable: "archery_arrows", resultKey: "arrows", numberColumn: "arrowNumber", columns: [
        Column("arrowNumber", .integer), Column("score", .integer), Column("isXRing", .boolean),
        Column("normalizedX", .number), Column("normalizedY", .number), Column("distanceFromCenter", .number),
        Column("clockPositionDeg", .number), Column("confidence", .number), Column("pixelX", .number), Column("pixelY", .number),
        Column("arrivalTime", .number),
    ])

    /// Seed 001's shots from video: one row per attempt (`result.shots`, issue 14).
    public static let basketballShots = ResultTable(sqlTable: "basketball_shots", resultKey: "shots", numberColumn: "shotNumber", columns: [
        Column("shotNumber", .integer), Column("releaseTime", .number), Column("rimTime", .number), Column("made", .boolean),
        Column("shotType", .text), Column("distanceFt", .number), Column("confidence", .number),
    ])

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
