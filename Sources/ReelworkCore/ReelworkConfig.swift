import Foundation

/// Every setting a Reelwork process reads, with its environment variable and default.
/// Flags on the command line override the environment; docs/CONFIGURATION.md's table lists the same names.
public struct ReelworkConfig: Sendable, Equatable {
    public var databaseURL: String
    public var redisURL: String
    /// The local storage folder: the videos themselves with `storage` `.local`, and always the
    /// coordinator's spool of uploads being received.
    public var storageDir: String
    /// Where videos are kept: the folder above or an S3-compatible bucket.
    public var storage: StorageSettings
    public var bind: String
    public var coordinatorURL: String
    public var workerSlots: Int
    public var maxUploadBytes: Int64
    public var queuePrefix: String
    public var decodeThreads: Int
    public var maxAttempts: Int
    public var migrationsDir: String?
    public var workerID: String?
    public var videoSource: VideoSource
    public var queue: QueueSettings
    /// Models, inference runtime and frame sampling (the `objects` and `pose` stages).
    public var vision: VisionSettings
    /// Bounds on what clients may send (videos, JSON bodies, pages, connections).
    public var limits: InputLimits
    /// Accept the diagnostic `noop` pipeline (load tests and failure tests; off in production).
    public var diagnostics: Bool
    /// Per-club quotas and per-key request rates (the coordinator enforces them).
    public var clubLimits: ClubLimits
    /// The key this process presents to the coordinator (`Authorization: Bearer`): the CLI's, or a
    /// worker's for reading video content over HTTP.
    public var apiKey: String?
    /// Where clients reach the coordinator (`REELWORK_PUBLIC_URL`), when it is not `coordinatorURL`
    /// (which may be an address only workers can reach). Read it through `linkBaseURL`.
    public var publicURL: String?
    /// Sending webhooks: URL policy, retry schedule, timeouts.
    public var webhooks: WebhookSettings
    /// Scrape access to `/metrics`, the worker's metrics listener, the queue gauges' refresh.
    public var metrics: MetricsSettings
    /// The live event stream: its cap in Redis, the subscribers' heartbeat and buffers.
    public var events: EventSettings

    /// Where a worker reads videos from.
    public enum VideoSource: String, Sendable, CaseIterable {
        /// The shared storage directory when the file is there, else the coordinator's content URL.
        case auto
        /// Always stream from the coordinator (workers on other machines).
        case http
    }

    public static let defaultDatabaseURL = "postgres://postgres@127.0.0.1:5432/reelwork"
    public static let defaultRedisURL = "redis://127.0.0.1:6379/0"
    public static let defaultStorageDir = ".local/storage"
    public static let defaultBind = "127.0.0.1:8080"
    public static let defaultCoordinatorURL = "http://127.0.0.1:8080"
    /// Seed 004 runs two analyses at once per device; a worker does the same per process.
    public static let defaultWorkerSlots = 2
    /// Seed 003's `StorageThresholds.maxVideoSize`.
    public static let defaultMaxUploadBytes: Int64 = 500 * 1024 * 1024
    /// Seeds 003 and 004: three attempts.
    public static let defaultMaxAttempts = 3

    /// The environment variables, by setting. Kept in one place so docs and code agree.
    public enum Env {
        public static let databaseURL = "REELWORK_DATABASE_URL"
        public static let redisURL = "REELWORK_REDIS_URL"
        public static let storageDir = "REELWORK_STORAGE_DIR"
        public static let bind = "REELWORK_BIND"
        public static let coordinatorURL = "REELWORK_COORDINATOR_URL"
        public static let workerSlots = "REELWORK_WORKER_SLOTS"
        public static let maxUploadBytes = "REELWORK_MAX_UPLOAD_BYTES"
        public static let queuePrefix = "REELWORK_QUEUE_PREFIX"
        public static let decodeThreads = "REELWORK_DECODE_THREADS"
        public static let maxAttempts = "REELWORK_MAX_ATTEMPTS"
        public static let migrationsDir = "REELWORK_MIGRATIONS_DIR"
        public static let workerID = "REELWORK_WORKER_ID"
        public static let videoSource = "REELWORK_VIDEO_SOURCE"
        public static let diagnostics = "REELWORK_DIAGNOSTICS"
        public static let apiKey = "REELWORK_API_KEY"
        public static let publicURL = "REELWORK_PUBLIC_URL"
    }

    /// Reads the environment, validating numbers; a bad value is an error that names the variable.
    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) throws -> ReelworkConfig {
        func int(_ name: String, _ fallback: Int, min: Int) throws -> Int {
            guard let text = env[name], !text.isEmpty else { return fallback }
            guard let value = Int(text), value >= min else {
                throw ReelworkError.configuration("\(name)='\(text)' is not a whole number ≥ \(min)")
            }
            return value
        }
        func text(_ name: String, _ fallback: String) -> String {
            env[name].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
        }
        return ReelworkConfig(
            databaseURL: text(Env.databaseURL, defaultDatabaseURL),
            redisURL: text(Env.redisURL, defaultRedisURL),
            storageDir: text(Env.storageDir, defaultStorageDir),
            storage: try StorageSettings.fromEnvironment(env),
            bind: text(Env.bind, defaultBind),
            coordinatorURL: text(Env.coordinatorURL, defaultCoordinatorURL),
            workerSlots: try int(Env.workerSlots, defaultWorkerSlots, min: 1),
            maxUploadBytes: Int64(try int(Env.maxUploadBytes, Int(defaultMaxUploadBytes), min: 1)),
            queuePrefix: text(Env.queuePrefix, "reelwork"),
            decodeThreads: try int(Env.decodeThreads, 0, min: 0),
            maxAttempts: try int(Env.maxAttempts, defaultMaxAttempts, min: 1),
            migrationsDir: env[Env.migrationsDir],
            workerID: env[Env.workerID],
            videoSource: try videoSource(env[Env.videoSource]),
            queue: try QueueSettings.fromEnvironment(env),
            vision: try VisionSettings.fromEnvironment(env),
            limits: try InputLimits.fromEnvironment(env),
            diagnostics: try flag(Env.diagnostics, env[Env.diagnostics]),
            clubLimits: try ClubLimits.fromEnvironment(env),
            apiKey: env[Env.apiKey].flatMap { $0.isEmpty ? nil : $0 },
            publicURL: try env[Env.publicURL].flatMap { $0.isEmpty ? nil : try publicURL($0) },
            webhooks: try WebhookSettings.fromEnvironment(env),
            metrics: try MetricsSettings.fromEnvironment(env),
            events: try EventSettings.fromEnvironment(env))
    }

    /// Where links for clients (webhook payloads) start: `publicURL`, else `coordinatorURL`, without
    /// a trailing slash.
    public var linkBaseURL: String {
        var base = publicURL ?? coordinatorURL
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// `text` (REELWORK_PUBLIC_URL) if it is an http or https URL with a host and no query,
    /// fragment or credentials.
    static func publicURL(_ text: String) throws -> String {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil, url.user == nil, url.password == nil else {
            throw ReelworkError.configuration(
                "\(Env.publicURL)='\(text)' must be an http or https URL with a host and no query, fragment or credentials, e.g. https://reelwork.example.org")
        }
        return text
    }

    static func flag(_ name: String, _ text: String?) throws -> Bool {
        switch text?.lowercased() {
        case nil, "", "0", "false", "no", "off": return false
        case "1", "true", "yes", "on": return true
        case let other?: throw ReelworkError.configuration("\(name)='\(other)' must be 1 or 0")
        }
    }

    private static func videoSource(_ text: String?) throws -> VideoSource {
        guard let text, !text.isEmpty else { return .auto }
        guard let source = VideoSource(rawValue: text) else {
            throw ReelworkError.configuration("\(Env.videoSource)='\(text)' must be one of: auto, http")
        }
        return source
    }

    /// Splits `bind` into host and port, or explains what is wrong with it.
    public func bindAddress() throws -> (host: String, port: Int) {
        try HostPort.parse(bind, setting: Env.bind)
    }
}
