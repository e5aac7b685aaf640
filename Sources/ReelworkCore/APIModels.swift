import Foundation

// The HTTP API's JSON shapes (v1). The coordinator encodes them, the CLI decodes them;
// keeping both sides on one type keeps them from drifting apart.

/// `{error: {code, message}}`, the body of every non-2xx answer.
public struct APIErrorBody: Codable, Sendable, Equatable {
    public struct Detail: Codable, Sendable, Equatable {
        public var code: String
        public var message: String
    }
    public var error: Detail

    public init(code: String, message: String) {
        self.error = Detail(code: code, message: message)
    }
}

/// An uploaded video as the API shows it.
public struct VideoView: Codable, Sendable, Equatable {
    public var id: UUID
    public var contentHash: String
    public var sizeBytes: Int64
    public var originalName: String?
    public var facts: VideoFacts
    public var createdAt: Date

    public init(id: UUID, contentHash: String, sizeBytes: Int64, originalName: String?, facts: VideoFacts, createdAt: Date) {
        self.id = id
        self.contentHash = contentHash
        self.sizeBytes = sizeBytes
        self.originalName = originalName
        self.facts = facts
        self.createdAt = createdAt
    }
}

/// `POST /v1/jobs` body.
public struct CreateJobRequest: Codable, Sendable {
    public var videoId: UUID
    public var sport: String
    public var club: String?
    public var options: JSONValue?
    public var maxAttempts: Int?
    /// `high`, `normal` (default) or `low`: the order of a club's own jobs.
    public var priority: String?

    public init(videoId: UUID, sport: String, club: String? = nil, options: JSONValue? = nil, maxAttempts: Int? = nil,
                priority: String? = nil) {
        self.videoId = videoId
        self.sport = sport
        self.club = club
        self.options = options
        self.maxAttempts = maxAttempts
        self.priority = priority
    }
}

/// One stage of one attempt.
public struct StageView: Codable, Sendable, Equatable {
    public var name: String
    public var attempt: Int
    public var status: StageStatus
    public var progress: Double
    public var framesDone: Int?
    public var framesPlanned: Int?
    public var startedAt: Date?
    public var finishedAt: Date?
    public var durationSeconds: Double?
    public var error: String?
    public var errorKind: String?

    public init(name: String, attempt: Int, status: StageStatus, progress: Double, framesDone: Int?, framesPlanned: Int?,
                startedAt: Date?, finishedAt: Date?, error: String?, errorKind: String?) {
        self.name = name
        self.attempt = attempt
        self.status = status
        self.progress = progress
        self.framesDone = framesDone
        self.framesPlanned = framesPlanned
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.durationSeconds = startedAt.flatMap { s in finishedAt.map { $0.timeIntervalSince(s) } }
        self.error = error
        self.errorKind = errorKind
    }
}

/// One run of a job: who ran it, when, and how it ended.
public struct AttemptView: Codable, Sendable, Equatable {
    public var attempt: Int
    public var workerId: String
    public var startedAt: Date
    public var finishedAt: Date?
    /// succeeded, failed, retry, stalled, handed_back, cancelled, lost; nil while running.
    public var outcome: String?
    public var error: String?
    public var errorKind: String?

    public init(attempt: Int, workerId: String, startedAt: Date, finishedAt: Date?, outcome: String?, error: String?, errorKind: String?) {
        self.attempt = attempt
        self.workerId = workerId
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.outcome = outcome
        self.error = error
        self.errorKind = errorKind
    }
}

/// A job as the API shows it. `stages` holds every attempt's stages (the attempt history);
/// list endpoints leave it empty.
public struct JobView: Codable, Sendable, Equatable {
    public var id: UUID
    public var videoId: UUID
    public var club: String
    public var sport: String
    public var options: JSONValue
    public var status: JobStatus
    public var attempt: Int
    public var maxAttempts: Int
    public var workerId: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var startedAt: Date?
    public var finishedAt: Date?
    public var lastError: String?
    public var lastErrorKind: String?
    public var priority: String
    /// Attempts that ended in an error, and attempts whose worker was lost (counted apart).
    public var failures: Int
    public var stalls: Int
    public var nextAttemptAt: Date?
    public var cancelRequested: Bool
    public var attempts: [AttemptView]
    public var stages: [StageView]

    public init(id: UUID, videoId: UUID, club: String, sport: String, options: JSONValue, status: JobStatus, attempt: Int,
                maxAttempts: Int, workerId: String?, createdAt: Date, updatedAt: Date, startedAt: Date?, finishedAt: Date?,
                lastError: String?, lastErrorKind: String?, priority: String = "normal", failures: Int = 0, stalls: Int = 0,
                nextAttemptAt: Date? = nil, cancelRequested: Bool = false, attempts: [AttemptView] = [], stages: [StageView]) {
        self.id = id
        self.videoId = videoId
        self.club = club
        self.sport = sport
        self.options = options
        self.status = status
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.workerId = workerId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.lastError = lastError
        self.lastErrorKind = lastErrorKind
        self.priority = priority
        self.failures = failures
        self.stalls = stalls
        self.nextAttemptAt = nextAttemptAt
        self.cancelRequested = cancelRequested
        self.attempts = attempts
        self.stages = stages
    }
}

/// `POST /v1/jobs/retry` body: retry every failed job matching the filter.
public struct RetryFilter: Codable, Sendable, Equatable {
    public var club: String?
    public var sport: String?
    public var errorKind: String?
    public var since: Date?
    public var until: Date?
    /// Required (true) to retry every failed job when no other field narrows the set.
    public var all: Bool?

    public init(club: String? = nil, sport: String? = nil, errorKind: String? = nil, since: Date? = nil, until: Date? = nil,
                all: Bool? = nil) {
        self.club = club
        self.sport = sport
        self.errorKind = errorKind
        self.since = since
        self.until = until
        self.all = all
    }

    /// True when no field narrows the set: every failed job would match.
    public var isUnfiltered: Bool { club == nil && sport == nil && errorKind == nil && since == nil && until == nil }
}

/// What a bulk retry did.
public struct BulkRetryResult: Codable, Sendable, Equatable {
    public var retried: [UUID]

    public init(retried: [UUID]) {
        self.retried = retried
    }
}

/// `GET /v1/jobs` answer: one page, newest first; pass `nextCursor` as `cursor` for the next.
public struct JobPage: Codable, Sendable, Equatable {
    public var jobs: [JobView]
    public var nextCursor: String?

    public init(jobs: [JobView], nextCursor: String?) {
        self.jobs = jobs
        self.nextCursor = nextCursor
    }
}

/// The analysis document: what `reelwork analyze` prints and `GET /v1/jobs/{id}/results` returns.
public struct AnalysisDocument: Codable, Sendable, Equatable {
    public struct Video: Codable, Sendable, Equatable {
        public var durationSeconds: Double
        public var frameCount: Int
        /// `decoded` once the decode stage counted the frames; `estimate` when only duration × fps
        /// was known (nil from servers older than this field).
        public var frameCountSource: VideoFacts.FrameCountSource?
        public var fps: Double
        public var width: Int
        public var height: Int
        public var codec: String

        public init(_ facts: VideoFacts) {
            durationSeconds = facts.durationSeconds
            frameCount = facts.frameCount
            frameCountSource = facts.frameCountSource
            fps = facts.fps
            width = facts.width
            height = facts.height
            codec = facts.codec
        }
    }
    public struct Stage: Codable, Sendable, Equatable {
        public var name: String
        public var status: StageStatus
        public var durationSeconds: Double?
        public var framesDone: Int?
        public var framesPlanned: Int?
        public var reason: String?

        public init(name: String, status: StageStatus, durationSeconds: Double?, framesDone: Int?, framesPlanned: Int?, reason: String?) {
            self.name = name
            self.status = status
            self.durationSeconds = durationSeconds
            self.framesDone = framesDone
            self.framesPlanned = framesPlanned
            self.reason = reason
        }
    }
    public var video: Video?
    public var stages: [Stage]
    public var warnings: [Warning]
    public var result: JSONValue

    public init(video: Video?, stages: [Stage], warnings: [Warning], result: JSONValue) {
        self.video = video
        self.stages = stages
        self.warnings = warnings
        self.result = result
    }
}

/// `GET /healthz` answer.
public struct HealthView: Codable, Sendable, Equatable {
    public var status: String
    public var redis: String
    public var postgres: String

    public init(status: String, redis: String, postgres: String) {
        self.status = status
        self.redis = redis
        self.postgres = postgres
    }
}

/// `GET /v1/queue`: what Redis holds right now.
public struct QueueStatsView: Codable, Sendable, Equatable {
    public var ready: Int
    public var delayed: Int
    public var running: Int
    public var runningByClub: [String: Int]

    public init(ready: Int, delayed: Int, running: Int, runningByClub: [String: Int]) {
        self.ready = ready
        self.delayed = delayed
        self.running = running
        self.runningByClub = runningByClub
    }
}

/// The version of what the pipelines compute; part of the default dedupe key, so a new version
/// re-analyses a clip instead of returning the old job.
public enum PipelineVersion {
    /// 2: the sport stages (tennis swings, bowling shots) and the int8 detector.
    public static let current = "2"
}
