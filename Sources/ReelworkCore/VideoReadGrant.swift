import Foundation

/// What a worker key shows to read a video's bytes: the job it runs and the attempt it holds the
/// lease for (the fencing token). The coordinator serves the video only while that job is
/// `running` at that attempt, so a worker key cannot read videos it was not given.
public struct VideoReadGrant: Sendable, Equatable {
    public var jobId: UUID
    public var attempt: Int

    public init(jobId: UUID, attempt: Int) {
        self.jobId = jobId
        self.attempt = attempt
    }

    /// The query parameters the grant travels in (`/v1/videos/{id}/content?job=…&attempt=…`).
    public static let jobParameter = "job"
    public static let attemptParameter = "attempt"

    /// `job=<id>&attempt=<n>`, the id lower case.
    public var query: String {
        "\(Self.jobParameter)=\(jobId.uuidString.lowercased())&\(Self.attemptParameter)=\(attempt)"
    }

    /// The grant named by the two parameters; nil when either is missing, or malformed
    /// (an attempt outside 1...1_000_000 never matches a job).
    public init?(job: String?, attempt: String?) {
        guard let job, let id = UUID(uuidString: job), let attempt, attempt.utf8.count <= 7,
              let number = Int(attempt), (1...1_000_000).contains(number) else { return nil }
        self.init(jobId: id, attempt: number)
    }
}
