import Foundation

/// One change of a job or of one of its stages, as published on the live event stream and sent
/// to `GET /v1/events` subscribers (the `data:` of a server-sent event, in the API's JSON).
/// Fields that do not apply to a type are absent (a job event has no stage; only progress and
/// stage ends carry frame counts; only failures carry an error).
public struct JobEvent: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, CaseIterable, Sendable {
        case jobQueued = "job.queued"
        case jobRunning = "job.running"
        case jobSucceeded = "job.succeeded"
        case jobFailed = "job.failed"
        case jobCancelled = "job.cancelled"
        case jobRetryScheduled = "job.retry_scheduled"
        case stageStarted = "stage.started"
        case stageProgress = "stage.progress"
        case stageSucceeded = "stage.succeeded"
        case stageFailed = "stage.failed"
        case stageSkipped = "stage.skipped"

        /// The job event for a status a job moved to.
        public static func job(_ status: JobStatus) -> Kind {
            switch status {
            case .queued: return .jobQueued
            case .running: return .jobRunning
            case .succeeded: return .jobSucceeded
            case .failed: return .jobFailed
            case .cancelled: return .jobCancelled
            case .retryScheduled: return .jobRetryScheduled
            }
        }

        /// The stage event for a stage that ended with `status` (nil for a status that is no end).
        public static func stageEnd(_ status: StageStatus) -> Kind? {
            switch status {
            case .succeeded: return .stageSucceeded
            case .failed: return .stageFailed
            case .skipped: return .stageSkipped
            case .pending, .running: return nil
            }
        }
    }

    public var type: Kind
    public var jobId: UUID
    public var batchId: UUID?
    public var club: String
    public var sport: String?
    public var stage: String?
    public var attempt: Int?
    public var framesDone: Int?
    public var framesPlanned: Int?
    public var errorKind: String?
    public var error: String?
    /// When the change was made true (just after its PostgreSQL write).
    public var time: Date

    public init(type: Kind, jobId: UUID, batchId: UUID? = nil, club: String, sport: String? = nil, stage: String? = nil,
                attempt: Int? = nil, framesDone: Int? = nil, framesPlanned: Int? = nil, errorKind: String? = nil,
                error: String? = nil, time: Date = Date()) {
        self.type = type
        self.jobId = jobId
        self.batchId = batchId
        self.club = club
        self.sport = sport
        self.stage = stage
        self.attempt = attempt
        self.framesDone = framesDone
        self.framesPlanned = framesPlanned
        self.errorKind = errorKind
        self.error = error
        self.time = time
    }

    /// An error message longer than this is cut: an event is a notice, the job's record has the whole text.
    public static let maxErrorCharacters = 1_000
}

/// What a stream of events says about itself rather than about a job: `reset` (the stream starts
/// from now, e.g. the `Last-Event-ID` asked for is gone) and `reconnect` (the server ends the
/// stream; reconnect with `lastEventId`).
public struct EventNotice: Codable, Sendable, Equatable {
    public var message: String
    /// The id to resume after (`reconnect`), or the one the server could not resume after (`reset`).
    public var lastEventId: String?

    public init(message: String, lastEventId: String? = nil) {
        self.message = message
        self.lastEventId = lastEventId
    }

    public static let reset = "reset"
    public static let reconnect = "reconnect"
}
