import Foundation

/// A service a worker depends on failing in a way that is not the job's fault: Redis refusing
/// writes, PostgreSQL out of disk, the coordinator (or the object store) unreachable or refusing
/// the worker's key (or its signature). The
/// job is handed back (or never claimed) and the worker tries again with backoff; nothing counts
/// against the job's attempts.
///
/// `cause` is a bounded name (a metric label); `description` says what failed, where, and what
/// an operator should do about it. `target` never holds a password.
public struct DependencyFault: Sendable, Equatable, CustomStringConvertible {
    public enum Dependency: String, Sendable, CaseIterable {
        case redis, postgres, coordinator
        /// The S3-compatible store videos are read from (`REELWORK_STORAGE=s3`).
        case store
    }

    public enum Cause: String, Sendable, CaseIterable {
        /// No connection, or it broke (refused, reset, timed out, the server shutting down).
        case unreachable
        /// Redis `OOM` (maxmemory reached under noeviction); PostgreSQL 53200.
        case outOfMemory = "out_of_memory"
        /// Redis `READONLY`: a replica.
        case readOnly = "read_only"
        /// Redis `MISCONF`: it cannot write its snapshot or append-only file, so it refuses writes.
        case persistenceFailing = "persistence_failing"
        /// Redis `LOADING`, `BUSY`, `MASTERDOWN`, `TRYAGAIN`, `CLUSTERDOWN`: not ready for now.
        case notReady = "not_ready"
        /// PostgreSQL 53100 (disk_full).
        case diskFull = "disk_full"
        /// PostgreSQL 53300 (too_many_connections).
        case tooManyConnections = "too_many_connections"
        /// The rest of PostgreSQL's class 53 (insufficient resources).
        case outOfResources = "out_of_resources"
        /// The coordinator answered 401: the worker's key is unknown or revoked.
        case unauthorized
        /// The coordinator answered 403: the key's role may not read videos.
        case forbidden
        /// The coordinator answered 5xx.
        case serverError = "server_error"
    }

    public let dependency: Dependency
    public let cause: Cause
    /// Where the dependency is: `host:port` (Redis), `host:port/database` (PostgreSQL) or the base URL (coordinator, store).
    public let target: String
    /// The error as its library reported it, on one line.
    public let detail: String

    public init(_ dependency: Dependency, _ cause: Cause, target: String, detail: String) {
        self.dependency = dependency
        self.cause = cause
        self.target = target
        // libpq's messages span lines ("ERROR: …\nHINT: …"); a log line should not.
        self.detail = detail.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The causes each dependency can have: the label pairs of `reelwork_worker_dependency_errors_total`.
    public static let causes: [(Dependency, [Cause])] = [
        (.redis, [.unreachable, .outOfMemory, .readOnly, .persistenceFailing, .notReady]),
        (.postgres, [.unreachable, .diskFull, .outOfMemory, .tooManyConnections, .outOfResources]),
        (.coordinator, [.unreachable, .unauthorized, .forbidden, .serverError]),
        (.store, [.unreachable, .unauthorized, .forbidden, .serverError]),
    ]

    /// The dependency by its own name, for log lines.
    public var name: String {
        switch dependency {
        case .redis: "Redis at \(target)"
        case .postgres: "PostgreSQL at \(target)"
        case .coordinator: "the coordinator at \(target)"
        case .store: "the object store at \(target)"
        }
    }

    /// What is wrong, in a few words.
    public var summary: String {
        switch (dependency, cause) {
        case (.coordinator, .unreachable), (.store, .unreachable): "cannot reach \(name) to read videos"
        case (_, .unreachable): "cannot reach \(name)"
        case (.redis, .outOfMemory): "\(name) refuses writes: it is out of memory"
        case (.redis, .readOnly): "\(name) refuses writes: it is a read-only replica"
        case (.redis, .persistenceFailing): "\(name) refuses writes: it cannot save its data to disk"
        case (.redis, .notReady): "\(name) is not ready"
        case (.postgres, .diskFull): "\(name) is out of disk space"
        case (.postgres, .outOfMemory): "\(name) is out of memory"
        case (.postgres, .tooManyConnections): "\(name) has no connection slots left"
        case (.postgres, .outOfResources): "\(name) is out of resources"
        case (.coordinator, .unauthorized): "\(name) refused the worker's key (401)"
        case (.coordinator, .forbidden): "\(name) does not let the worker's key read videos (403)"
        case (.coordinator, .serverError), (.store, .serverError): "\(name) failed to serve a video (5xx)"
        case (.store, .unauthorized), (.store, .forbidden): "\(name) refused the worker's signed read (\(cause == .forbidden ? 403 : 401))"
        default: "\(name) failed (\(cause.rawValue))"
        }
    }

    /// What an operator should do.
    public var advice: String {
        switch (dependency, cause) {
        case (.redis, .unreachable):
            "check that Redis is running and that \(ReelworkConfig.Env.redisURL) points at it"
        case (.redis, .outOfMemory):
            "raise Redis's maxmemory or free memory there; keep maxmemory-policy noeviction (an evicting Redis drops queue entries); running jobs finish, new ones wait in the queue"
        case (.redis, .readOnly):
            "point \(ReelworkConfig.Env.redisURL) at the primary (after a failover, the new one), or run REPLICAOF NO ONE on this server if it should be the primary"
        case (.redis, .persistenceFailing):
            "Redis cannot write its RDB or append-only file (its log says why: usually a full disk or permissions); it takes writes again once a save succeeds"
        case (.redis, _):
            "it is loading its data, busy with a script, or has no primary; this usually passes by itself"
        case (.postgres, .unreachable):
            "check that PostgreSQL is running and that \(ReelworkConfig.Env.databaseURL) points at it"
        case (.postgres, .diskFull):
            "free space on the database volume or grow it; jobs are handed back, not failed, until writes succeed"
        case (.postgres, .outOfMemory):
            "give the server more memory or lower work_mem / max_connections"
        case (.postgres, .tooManyConnections):
            "raise max_connections or put a pooler in front; each worker uses one connection per slot plus two"
        case (.postgres, _):
            "see PostgreSQL's log for the resource it ran out of"
        case (.coordinator, .unreachable):
            "check that the coordinator is running and that \(ReelworkConfig.Env.coordinatorURL) is an address this worker can reach (or give the worker the shared storage directory, with \(ReelworkConfig.Env.videoSource)=auto)"
        case (.coordinator, .unauthorized):
            "set \(ReelworkConfig.Env.apiKey) to a valid worker key (`reelwork keys create --worker`; `reelwork keys list` shows revoked ones) and restart the worker"
        case (.coordinator, .forbidden):
            "\(ReelworkConfig.Env.apiKey) must be a worker or operator key (`reelwork keys create --worker`)"
        case (.coordinator, _):
            "see the coordinator's log (its database or storage may be failing)"
        case (.store, .unreachable):
            "check that the store is running and that \(StorageSettings.Env.endpoint) is an address this worker can reach"
        case (.store, .unauthorized), (.store, .forbidden):
            "give the worker the same \(StorageSettings.Env.accessKeyID) and \(StorageSettings.Env.secretAccessKey) as the coordinator, "
                + "with read access to \(StorageSettings.Env.bucket), and check this machine's clock (a signature more than 15 minutes off the store's clock is refused)"
        case (.store, _):
            "see the store's log"
        }
    }

    /// `[dependency cause] summary (detail). What to do: advice.`
    public var description: String {
        "[\(dependency.rawValue) \(cause.rawValue)] \(summary) (\(detail)). What to do: \(advice)"
    }
}

extension DependencyFault {
    /// `host:port/database` from a PostgreSQL URL (never its user or password); the variable's name
    /// for a connection string that is not a URL.
    public static func postgresTarget(_ databaseURL: String) -> String {
        guard let url = URLComponents(string: databaseURL), let host = url.host, !host.isEmpty else {
            return "\(ReelworkConfig.Env.databaseURL)"
        }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        return "\(host):\(url.port ?? 5432)" + (database.isEmpty ? "" : "/\(database)")
    }

    /// A URL without its user, password, query or fragment, and without a trailing slash.
    public static func urlTarget(_ text: String) -> String {
        guard var url = URLComponents(string: text), url.host != nil else { return text }
        url.user = nil
        url.password = nil
        url.query = nil
        url.fragment = nil
        var shown = url.string ?? text
        while shown.hasSuffix("/") { shown.removeLast() }
        return shown
    }
}
