import Foundation
import ReelworkCore

/// One job as a report shows it: who, which file, when, how it ended, its result and picture.
public struct ReportJob {
    /// Nil for a clip analysed locally (`reelwork analyze --report`), which is no job.
    public var id: UUID?
    public var club: String?
    public var sport: Sport
    public var fileName: String?
    /// When the clip came in: the job's creation (its upload), or the analysis of a local file.
    public var createdAt: Date
    /// What `createdAt` is called where the clip's filming time is unknown: "Uploaded" for a job,
    /// "Analysed" for a local file.
    public var createdAs: String
    /// When the clip was filmed, as its container says; nil when it does not (the report then
    /// gives `createdAt` as the upload's time).
    public var recordedAt: Date?
    public var status: String
    /// Why it failed, when it did.
    public var error: String?
    /// The result document's `result`, for a succeeded job.
    public var result: JSONValue?
    public var picture: Picture?
    /// Why there is no picture, when there is none (said in the report instead).
    public var pictureNote: String?

    public init(id: UUID?, club: String?, sport: Sport, fileName: String?, createdAt: Date, createdAs: String = "Uploaded", recordedAt: Date? = nil,
                status: String,
                error: String? = nil, result: JSONValue? = nil, picture: Picture? = nil, pictureNote: String? = nil) {
        (self.id, self.club, self.sport, self.fileName, self.createdAt, self.createdAs, self.recordedAt) =
            (id, club, sport, fileName, createdAt, createdAs, recordedAt)
        (self.status, self.error, self.result, self.picture, self.pictureNote) = (status, error, result, picture, pictureNote)
    }

    /// "Recorded" and when the clip was filmed, else when it came in (`createdAs`).
    var when: Total {
        recordedAt.map { Total("Recorded", ReportLayout.time($0)) } ?? Total(createdAs, ReportLayout.time(createdAt))
    }

    var name: String { fileName ?? id.map { "video of job \($0.uuidString.lowercased())" } ?? "video" }
}
