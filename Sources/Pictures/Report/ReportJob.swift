import Foundation
import ReelworkCore

/// One job as a report shows it: who, which file, when, how it ended, its result and picture.
public struct ReportJob {
    /// Nil for a clip analysed locally (`reelwork analyze --report`), which is no job.
    public var id: UUID?
    public var club: String?
    public var sport: Sport
    public var fileName: String?
    public var createdAt: Date
    public var status: String
    /// Why it failed, when it did.
    public var error: String?
    /// The result document's `result`, for a succeeded job.
    public var result: JSONValue?
    public var picture: Picture?
    /// Why there is no picture, when there is none (said in the report instead).
    public var pictureNote: String?

    public init(id: UUID?, club: String?, sport: Sport, fileName: String?, createdAt: Date, status: String, error: String? = nil,
                result: JSONValue? = nil, picture: Picture? = nil, pictureNote: String? = nil) {
        (self.id, self.club, self.sport, self.fileName, self.createdAt) = (id, club, sport, fileName, createdAt)
        (self.status, self.error, self.result, self.picture, self.pictureNote) = (status, error, result, picture, pictureNote)
    }

    var name: String { fileName ?? id.map { "video of job \($0.uuidString.lowercased())" } ?? "video" }
}
