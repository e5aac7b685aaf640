import ReelworkCore
import SportKit

/// Seed 002's adjustment step on the server: a person's corrections (move, add, delete, by the
/// detected arrows' indices) read from `POST /v1/jobs/{id}/arrows`, and the confirmed end they give,
/// rescored by the same rule. The coordinator mounts the route from `route` and stores each
/// version in `archery_confirmations`, beside the detected end, which never changes; the newest
/// version is the current one.
public struct ArcheryConfirmation: PendingConfirmation {
    /// `/v1/jobs/{id}/arrows`: archery's end is corrected on the face, not row by row.
    public static let route = ConfirmationRoute(
        segment: "arrows", noun: "end", operations: ["move", "add", "delete"], confirmationsTable: "archery_confirmations",
        read: { body, options in try ArcheryConfirmation(body: body, options: options) }, csv: csv)

    /// The confirmed CSV's columns: seed 002's `ArrowPlacementResult` fields, plus where each came from.
    public static let confirmedColumns = ["arrowNumber", "score", "isX", "normalizedX", "normalizedY", "distanceFromCenter",
                                          "clockPositionDeg", "wasAdjusted", "source", "detectedIndex"]

    let parsed: [ArcheryCorrection]
    let options: ArcheryOptions

    /// Reads the body's corrections (`ArcheryCorrections.parse`) and the job's options, whose
    /// arrow and face sizes the rescoring uses. Throws `ReelworkError.invalidInput`.
    public init(body: JSONValue, options: JSONValue) throws {
        parsed = try ArcheryCorrections.parse(body)
        self.options = try ArcheryOptions.parse(options)
    }

    /// One `{op, index?, x?, y?}` per correction.
    public var corrections: JSONValue { .array(parsed.map(Self.json)) }

    /// The confirmed end (`ConfirmedEnd.json()`), its arrows numbered from 1.
    public func confirmed(detected result: JSONValue) throws -> JSONValue {
        Self.numbered(try ArcheryCorrections.apply(parsed, toDetected: result, options: options).json())
    }

    /// One correction as stored and shown: `{op, index?, x?, y?}`.
    static func json(_ correction: ArcheryCorrection) -> JSONValue {
        switch correction {
        case .move(let index, let x, let y):
            .object(["op": .string("move"), "index": .number(Double(index)), "x": .number(x), "y": .number(y)])
        case .add(let x, let y): .object(["op": .string("add"), "x": .number(x), "y": .number(y)])
        case .delete(let index): .object(["op": .string("delete"), "index": .number(Double(index))])
        }
    }

    /// The confirmed end's arrows, one CSV row each (RFC 4180, as the detected rows).
    public static func csv(_ confirmed: JSONValue) -> String {
        let arrows: [JSONValue] = if case .array(let items)? = confirmed["arrows"] { items } else { [] }
        return CSV.render(header: confirmedColumns, rows: arrows.map { arrow in
            confirmedColumns.map { key in
                switch arrow[key] {
                case .number(let n)?: CSV.number(n)
                case .string(let s)?: s
                case .bool(let b)?: b ? "true" : "false"
                default: ""
                }
            }
        })
    }

    /// The confirmed end's document with each arrow numbered from 1, as the detected rows are.
    static func numbered(_ document: JSONValue) -> JSONValue {
        guard case .object(var fields) = document, case .array(let arrows)? = fields["arrows"] else { return document }
        fields["arrows"] = .array(arrows.enumerated().map { index, arrow in
            guard case .object(var a) = arrow else { return arrow }
            a["arrowNumber"] = .number(Double(index + 1))
            return .object(a)
        })
        return .object(fields)
    }
}
