import Foundation
import ReelworkCore

/// What a live event says about the job it is about, besides the change itself.
public struct JobEventSubject: Sendable, Equatable {
    public var jobId: UUID
    public var club: String
    public var batchId: UUID?
    public var sport: String
    public var attempt: Int

    /// An event of `type` about this job, at its current attempt unless told otherwise.
    public func event(_ type: JobEvent.Kind, attempt: Int? = nil, errorKind: String? = nil, error: String? = nil) -> JobEvent {
        JobEvent(type: type, jobId: jobId, batchId: batchId, club: club, sport: sport, attempt: attempt ?? self.attempt,
                 errorKind: errorKind, error: error.map { String($0.prefix(JobEvent.maxErrorCharacters)) })
    }
}

extension JobRepository {
    /// The club, batch, sport and attempt of each job in `ids` that exists: for the events of
    /// changes whose statements did not read them (the maintenance loop's, a cancel).
    public func eventSubjects(_ ids: [UUID]) throws -> [UUID: JobEventSubject] {
        guard !ids.isEmpty else { return [:] }
        var subjects: [UUID: JobEventSubject] = [:]
        for row in try db.query(SQL.eventSubjects, ["{" + ids.map { $0.uuidString.lowercased() }.joined(separator: ",") + "}"]).rows {
            let id = try row.uuid("id")
            subjects[id] = JobEventSubject(jobId: id, club: try row.string("club"), batchId: row.optionalUUID("batch_id"),
                                           sport: try row.string("sport"), attempt: try row.int("attempt"))
        }
        return subjects
    }
}
