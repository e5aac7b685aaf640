import Foundation
import ReelworkCore

/// A confirmed version of a result: the corrections a person sent and what they give (archery's
/// end rescored, seed 002's adjustment step; another sport's rows with their totals recomputed).
/// Stored beside the detected result, which never changes.
public struct Confirmation: Sendable, Equatable {
    public var version: Int
    public var corrections: JSONValue
    public var confirmed: JSONValue
    public var createdAt: Date

    /// `{version, createdAt, corrections, …confirmed}` (archery: `arrows, total, xCount, tens`;
    /// another sport: its rows and their totals): what the API shows.
    public func json() -> JSONValue {
        guard case .object(var fields) = confirmed else { return confirmed }
        fields["version"] = .number(Double(version))
        fields["createdAt"] = .string(ReelworkJSON.formatDate(createdAt))
        fields["corrections"] = corrections
        return .object(fields)
    }

    /// `result` with the confirmed document's fields in place of its own (a sport's rows and
    /// their totals), so that what is added up from it (CSV, stats, a report's totals) is the
    /// confirmed version. The detected fields the confirmation does not hold (the hoop, the
    /// calibration) stay.
    public func applied(to result: JSONValue) -> JSONValue {
        guard case .object(var fields) = result, case .object(let confirmedFields) = confirmed else { return result }
        fields.merge(confirmedFields) { _, new in new }
        return .object(fields)
    }
}
