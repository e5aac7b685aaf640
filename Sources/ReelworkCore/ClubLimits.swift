/// What one club or one key may ask of a shared coordinator, so one busy club cannot crowd out
/// the others. Each is a setting with a default (docs/CONFIGURATION.md's table lists them).
public struct ClubLimits: Sendable, Equatable {
    /// Jobs a club may have waiting (queued, or scheduled for a retry) at once; more get 429
    /// `quota_exceeded`. Protects the queue's memory and the other clubs' wait.
    public var maxWaitingJobsPerClub = 10_000
    /// Requests one key may make per second, counted across coordinators in Redis; more get 429
    /// with `Retry-After`. Protects the coordinators and PostgreSQL from one runaway client.
    public var requestsPerSecondPerKey = 100
    /// Requests one client address may make per second to one coordinator (a burst of twice that),
    /// counted before the key is looked up; more get 429 with `Retry-After`. Protects the key
    /// lookup's database pool, the dashboard and `/metrics` from a client sending forged keys or none.
    public var requestsPerSecondPerAddress = 200
    /// Uploads one club may send to one coordinator at once (at most the coordinator's
    /// `REELWORK_MAX_CONCURRENT_UPLOADS`); more get 503 with `Retry-After`. One club's slow uploads
    /// cannot take every slot.
    public var uploadsPerClub = 4
    /// Uploads in parts a club may have open (started, not completed, abandoned or expired); more
    /// get 429 `quota_exceeded`. Each holds parts in the store until it ends: one club's runaway
    /// client cannot fill the store or the table.
    public var openUploadsPerClub = 200
    /// Stills of videos (`/dashboard/jobs/{id}/frame.png`) one key may have decoded per second on one
    /// coordinator (a burst of twice that); pictures already in the cache do not count. More get 429.
    /// Protects the coordinator's CPU from a page that asks for every moment of a video.
    public var stillsPerSecondPerKey = 5

    public init() {}

    public enum Env {
        public static let maxWaitingJobsPerClub = "REELWORK_MAX_WAITING_JOBS_PER_CLUB"
        public static let requestsPerSecondPerKey = "REELWORK_RATE_LIMIT_PER_SECOND"
        public static let requestsPerSecondPerAddress = "REELWORK_RATE_LIMIT_PER_ADDRESS"
        public static let uploadsPerClub = "REELWORK_MAX_UPLOADS_PER_CLUB"
        public static let openUploadsPerClub = "REELWORK_MAX_OPEN_UPLOADS_PER_CLUB"
        public static let stillsPerSecondPerKey = "REELWORK_DASHBOARD_STILLS_PER_SECOND"
    }

    /// Reads the environment; a value that is not a whole number from 1 up is an error naming the variable.
    public static func fromEnvironment(_ env: [String: String]) throws -> ClubLimits {
        var limits = ClubLimits()
        func whole(_ name: String, _ value: inout Int) throws {
            guard let text = env[name], !text.isEmpty else { return }
            guard let v = Int(text), (1...100_000_000).contains(v) else {
                throw ReelworkError.configuration("\(name)='\(text)' must be a whole number from 1 to 100000000")
            }
            value = v
        }
        try whole(Env.maxWaitingJobsPerClub, &limits.maxWaitingJobsPerClub)
        try whole(Env.requestsPerSecondPerKey, &limits.requestsPerSecondPerKey)
        try whole(Env.requestsPerSecondPerAddress, &limits.requestsPerSecondPerAddress)
        try whole(Env.uploadsPerClub, &limits.uploadsPerClub)
        try whole(Env.openUploadsPerClub, &limits.openUploadsPerClub)
        try whole(Env.stillsPerSecondPerKey, &limits.stillsPerSecondPerKey)
        return limits
    }
}
