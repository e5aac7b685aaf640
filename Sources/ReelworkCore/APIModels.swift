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
    /// The club whose record this is (the same bytes have one record per club).
    public var club: String
    public var contentHash: String
    public var sizeBytes: Int64
    public var originalName: String?
    public var facts: VideoFacts
    public var createdAt: Date

    public init(id: UUID, club: String, contentHash: String, sizeBytes: Int64, originalName: String?, facts: VideoFacts, createdAt: Date) {
        self.id = id
        self.club = club
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
    /// The batch the job joins (the batch's club and sport must be the job's).
    public var batchId: UUID?
    /// The clip's name on the client (default: the name its bytes were first uploaded under).
    public var fileName: String?
    /// A note of the coach's own, shown with the job (default: the batch's label).
    public var label: String?

    public init(videoId: UUID, sport: String, club: String? = nil, options: JSONValue? = nil, maxAttempts: Int? = nil,
                priority: String? = nil, batchId: UUID? = nil, fileName: String? = nil, label: String? = nil) {
        self.fileName = fileName
        self.label = label
        self.videoId = videoId
        self.sport = sport
        self.club = club
        self.options = options
        self.maxAttempts = maxAttempts
        self.priority = priority
        self.batchId = batchId
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
    public var batchId: UUID?
    /// The clip's name as the client gave it for this job (two copies of one video keep theirs).
    public var fileName: String?
    /// The job's label, or its batch's.
    public var label: String?
    /// Set on a waiting job: whether an operator's pause (its club's or the whole queue's) holds it.
    public var paused: Bool?
    public var attempts: [AttemptView]
    public var stages: [StageView]

    public init(id: UUID, videoId: UUID, club: String, sport: String, options: JSONValue, status: JobStatus, attempt: Int,
                maxAttempts: Int, workerId: String?, createdAt: Date, updatedAt: Date, startedAt: Date?, finishedAt: Date?,
                lastError: String?, lastErrorKind: String?, priority: String = "normal", failures: Int = 0, stalls: Int = 0,
                nextAttemptAt: Date? = nil, cancelRequested: Bool = false, batchId: UUID? = nil, fileName: String? = nil,
                label: String? = nil, attempts: [AttemptView] = [], stages: [StageView]) {
        self.batchId = batchId
        self.fileName = fileName
        self.label = label
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

/// `POST /v1/jobs/{id}/retry` body (optional): options to merge into the job's before it runs again,
/// for a job that failed `needs_person` for want of one (basketball's `hoop`).
public struct RetryJobRequest: Codable, Sendable, Equatable {
    /// A JSON Merge Patch (RFC 7386) of the job's options: keys set, null removes one.
    public var options: JSONValue?

    public init(options: JSONValue? = nil) {
        self.options = options
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
    /// True: only count the jobs that would be retried (`matched`), and change nothing.
    public var dryRun: Bool?

    public init(club: String? = nil, sport: String? = nil, errorKind: String? = nil, since: Date? = nil, until: Date? = nil,
                all: Bool? = nil, dryRun: Bool? = nil) {
        self.club = club
        self.sport = sport
        self.errorKind = errorKind
        self.since = since
        self.until = until
        self.all = all
        self.dryRun = dryRun
    }

    /// True when no field narrows the set: every failed job would match.
    public var isUnfiltered: Bool { club == nil && sport == nil && errorKind == nil && since == nil && until == nil }
}

/// What a bulk retry did, or with `dryRun` would do.
public struct BulkRetryResult: Codable, Sendable, Equatable {
    /// The jobs queued again (none in a dry run).
    public var retried: [UUID]
    /// How many failed jobs matched: those retried, or in a dry run those that would be. (Nil
    /// from a coordinator older than the field.)
    public var matched: Int?
    /// True when nothing was changed: the answer to a dry run. (A coordinator that does not know
    /// `dryRun` leaves it out, and has retried the jobs.)
    public var dryRun: Bool?

    public init(retried: [UUID], matched: Int? = nil, dryRun: Bool? = nil) {
        self.retried = retried
        self.matched = matched ?? retried.count
        self.dryRun = dryRun
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
    /// Archery: the newest confirmed version of the end (`POST /v1/jobs/{id}/arrows`), beside the
    /// detected one in `result`, which stays as it was; absent when no one confirmed it.
    public var confirmed: JSONValue?

    public init(video: Video?, stages: [Stage], warnings: [Warning], result: JSONValue, confirmed: JSONValue? = nil) {
        self.video = video
        self.stages = stages
        self.warnings = warnings
        self.result = result
        self.confirmed = confirmed
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
    /// The whole queue is paused: no claims at all (running jobs finish).
    public var paused: Bool
    /// Clubs whose jobs claims skip.
    public var pausedClubs: [String]

    public init(ready: Int, delayed: Int, running: Int, runningByClub: [String: Int], paused: Bool = false, pausedClubs: [String] = []) {
        self.ready = ready
        self.delayed = delayed
        self.running = running
        self.runningByClub = runningByClub
        self.paused = paused
        self.pausedClubs = pausedClubs
    }
}

/// The version of what the pipelines compute; part of the default dedupe key, so a new version
/// re-analyses a clip instead of returning the old job.
public enum PipelineVersion {
    /// 2: the sport stages (tennis swings, bowling shots) and the int8 detector.
    public static let current = "2"
}

/// `POST /v1/videos/lookup` body: which of these files (by SHA-256) does the club have?
public struct VideoLookupRequest: Codable, Sendable {
    /// Most hashes one request may name: 3,000 take about 200 KB of JSON, inside the default body
    /// limit (`REELWORK_MAX_JSON_BYTES`, 256 KiB); `submit` asks about more in several requests.
    public static let maxHashes = 3_000

    public var hashes: [String]
    /// Operators name the club; a club key's own club is used otherwise.
    public var club: String?

    public init(hashes: [String], club: String? = nil) {
        self.hashes = hashes
        self.club = club
    }
}

/// One file the club has already uploaded.
public struct VideoLookupMatch: Codable, Sendable, Equatable {
    public var contentHash: String
    public var videoId: UUID

    public init(contentHash: String, videoId: UUID) {
        self.contentHash = contentHash
        self.videoId = videoId
    }
}

/// `POST /v1/videos/lookup` answer: the hashes found, each with the club's video id.
public struct VideoLookupResult: Codable, Sendable, Equatable {
    public var videos: [VideoLookupMatch]

    public init(videos: [VideoLookupMatch]) {
        self.videos = videos
    }
}

/// `POST /v1/batches` body.
public struct CreateBatchRequest: Codable, Sendable {
    public var sport: String
    public var options: JSONValue?
    public var label: String?
    /// Operators name the club; a club key's own club is used otherwise.
    public var club: String?

    public init(sport: String, options: JSONValue? = nil, label: String? = nil, club: String? = nil) {
        self.sport = sport
        self.options = options
        self.label = label
        self.club = club
    }
}

/// A batch with its jobs counted by state and its frames summed over the jobs' current attempts.
public struct BatchView: Codable, Sendable, Equatable {
    public var id: UUID
    public var club: String
    public var sport: String
    public var options: JSONValue
    public var label: String?
    public var createdAt: Date
    public var total: Int
    /// Jobs by status (`queued`, `running`, `retry_scheduled`, `succeeded`, `failed`, `cancelled`).
    public var counts: [String: Int]
    public var framesDone: Int
    public var framesPlanned: Int
    /// When its first job started; when its last job ended, once every job has.
    public var startedAt: Date?
    public var finishedAt: Date?

    public init(id: UUID, club: String, sport: String, options: JSONValue, label: String?, createdAt: Date, total: Int,
                counts: [String: Int], framesDone: Int, framesPlanned: Int, startedAt: Date?, finishedAt: Date?) {
        self.id = id
        self.club = club
        self.sport = sport
        self.options = options
        self.label = label
        self.createdAt = createdAt
        self.total = total
        self.counts = counts
        self.framesDone = framesDone
        self.framesPlanned = framesPlanned
        self.startedAt = startedAt
        self.finishedAt = finishedAt
    }

    /// True once it has jobs and every one has ended.
    public var isComplete: Bool { total > 0 && finishedAt != nil }
}

/// A page of batches, newest first.
public struct BatchPage: Codable, Sendable, Equatable {
    public var batches: [BatchView]
    public var nextCursor: String?

    public init(batches: [BatchView], nextCursor: String?) {
        self.batches = batches
        self.nextCursor = nextCursor
    }
}

/// `POST /v1/batches/{id}/jobs` body: one job per video, with the batch's sport and options.
public struct AddBatchJobsRequest: Codable, Sendable {
    /// Most videos one request may name (about 195 KB of JSON, inside the default body limit):
    /// bigger sets go in several requests, so one request never holds a transaction (and the
    /// club's quota lock) for long.
    public static let maxVideoIds = 5_000

    /// Most bytes of a request the client builds (`slices`): under the default body limit whatever
    /// the names hold.
    public static let maxBodyBytes = 192 * 1024

    public var videoIds: [UUID]
    /// The clip's name on the client for each video, in the same order (optional). The same video
    /// under two names is two jobs, each with its own name; the same video and name again is the
    /// same job.
    public var fileNames: [String]?
    public var priority: String?
    public var maxAttempts: Int?

    public init(videoIds: [UUID], fileNames: [String]? = nil, priority: String? = nil, maxAttempts: Int? = nil) {
        self.videoIds = videoIds
        self.fileNames = fileNames
        self.priority = priority
        self.maxAttempts = maxAttempts
    }
}

extension AddBatchJobsRequest {
    /// Requests for every `(videoId, fileName)` entry, in order, each within `maxVideoIds` entries
    /// and about `maxBodyBytes` of JSON.
    public static func slices(_ entries: [(videoId: UUID, fileName: String)]) -> [AddBatchJobsRequest] {
        var requests: [AddBatchJobsRequest] = []
        var ids: [UUID] = [], names: [String] = [], bytes = 0
        for entry in entries {
            // A UUID in quotes and a comma, the name escaped as JSON (at most 6 bytes a scalar) and its comma.
            let size = 40 + JSONValue.string(entry.fileName).jsonString().utf8.count + 1
            if !ids.isEmpty, ids.count == maxVideoIds || bytes + size > maxBodyBytes - 1_024 {
                requests.append(AddBatchJobsRequest(videoIds: ids, fileNames: names))
                (ids, names, bytes) = ([], [], 0)
            }
            ids.append(entry.videoId)
            names.append(entry.fileName)
            bytes += size
        }
        if !ids.isEmpty { requests.append(AddBatchJobsRequest(videoIds: ids, fileNames: names)) }
        return requests
    }
}

/// `POST /v1/batches/{id}/jobs` answer: the job of each video, in the order asked.
public struct AddBatchJobsResult: Codable, Sendable, Equatable {
    /// Job ids, one per requested video, in the request's order.
    public var jobIds: [UUID]
    /// How many of them this request created (the rest existed: a repeat or a resumed submit).
    public var created: Int

    public init(jobIds: [UUID], created: Int) {
        self.jobIds = jobIds
        self.created = created
    }
}

/// `POST /v1/webhooks` body: where to send which events.
public struct CreateWebhookRequest: Codable, Sendable {
    /// An http or https URL without a user name or password, on a public address (unless the
    /// coordinator allows private ones: REELWORK_WEBHOOK_ALLOW_PRIVATE).
    public var url: String
    /// At least one of `job.succeeded`, `job.failed`, `job.cancelled`, `batch.completed`.
    public var events: [String]
    /// Operators name the club; a club key's own club is used otherwise.
    public var club: String?

    public init(url: String, events: [String], club: String? = nil) {
        self.url = url
        self.events = events
        self.club = club
    }
}

/// The answer to `POST /v1/webhooks` (201) and `POST /v1/webhooks/{id}/rotate`: the endpoint and
/// its new signing secret (`whsec_…`), which is shown this once and never again.
public struct WebhookSecretView: Codable, Sendable, Equatable {
    public var webhook: WebhookEndpointRecord
    public var secret: String

    public init(webhook: WebhookEndpointRecord, secret: String) {
        self.webhook = webhook
        self.secret = secret
    }
}

/// A page of webhook endpoints, newest first (`GET /v1/webhooks`).
public struct WebhookEndpointPage: Codable, Sendable, Equatable {
    public var webhooks: [WebhookEndpointRecord]
    public var nextCursor: String?

    public init(webhooks: [WebhookEndpointRecord], nextCursor: String?) {
        self.webhooks = webhooks
        self.nextCursor = nextCursor
    }
}
