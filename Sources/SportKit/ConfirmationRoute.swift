import ReelworkCore

/// A sport's own correction route, for a result whose corrections are not edits of rows that a
/// `RowCorrector` makes (archery's end: arrows moved on the face, added or deleted, and the end
/// rescored). The coordinator mounts it at `/v1/jobs/{id}/<segment>` with the access, the club
/// check and the versioned storage every correction has; the sport says only what its
/// corrections are and what they give, so the coordinator names no sport.
///
/// `POST` reads a whole set of corrections to the detected result (`read`) and stores the
/// confirmed version it gives as the next one; `GET` shows the newest, as JSON or as CSV (`csv`).
public struct ConfirmationRoute: Sendable {
    /// The path segment after `/v1/jobs/{id}/` ("arrows"); messages use it for what is corrected
    /// ("arrows are corrected on archery jobs only").
    public let segment: String
    /// What a confirmed version is called in messages ("end": "the job's end has not been confirmed").
    public let noun: String
    /// The `op` names a correction may have, so that the corrections metric shows each at 0
    /// before the first is made.
    public let operations: [String]
    /// The PostgreSQL table of the confirmed versions (its migration copies
    /// `archery_confirmations`: `job_id`, `version`, `corrections`, `confirmed`, `created_at`).
    public let confirmationsTable: String
    /// Reads a request's corrections, and the job's options they are applied with. Throws
    /// `ReelworkError.invalidInput` naming the correction and its problem. Called before the
    /// detected result is read, so a malformed body is refused whatever the stored result.
    public let read: @Sendable (_ body: JSONValue, _ options: JSONValue) throws -> any PendingConfirmation
    /// A confirmed version's rows as CSV (RFC 4180, as the detected rows), header first.
    public let csv: @Sendable (_ confirmed: JSONValue) -> String

    public init(segment: String, noun: String, operations: [String], confirmationsTable: String,
                read: @escaping @Sendable (JSONValue, JSONValue) throws -> any PendingConfirmation,
                csv: @escaping @Sendable (JSONValue) -> String) {
        (self.segment, self.noun, self.operations, self.confirmationsTable) = (segment, noun, operations, confirmationsTable)
        (self.read, self.csv) = (read, csv)
    }
}

/// Corrections read from a request and not yet applied: `ConfirmationRoute.read`'s answer.
public protocol PendingConfirmation: Sendable {
    /// The corrections as read, each `{op, …}`, as they are stored and shown: nothing else a
    /// client put in the body is kept.
    var corrections: JSONValue { get }

    /// The confirmed document these corrections give on the detected result document. Throws
    /// `ReelworkError.invalidInput` for a correction the detected result cannot take (an index it
    /// does not have).
    func confirmed(detected result: JSONValue) throws -> JSONValue
}
