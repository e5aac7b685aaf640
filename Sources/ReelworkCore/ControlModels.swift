import Foundation

/// A worker as `GET /v1/workers` shows it: what its last heartbeat said.
public struct WorkerView: Codable, Sendable, Equatable {
    public var id: String
    public var host: String
    public var version: String
    public var slots: Int
    public var running: Int
    public var startedAt: Date?
    public var lastHeartbeatAt: Date
    /// Seconds since that heartbeat (a few heartbeat intervals at most: older records expire).
    public var heartbeatAgeSeconds: Double
    public var draining: Bool

    public init(id: String, host: String, version: String, slots: Int, running: Int, startedAt: Date?, lastHeartbeatAt: Date,
                heartbeatAgeSeconds: Double, draining: Bool) {
        self.id = id
        self.host = host
        self.version = version
        self.slots = slots
        self.running = running
        self.startedAt = startedAt
        self.lastHeartbeatAt = lastHeartbeatAt
        self.heartbeatAgeSeconds = heartbeatAgeSeconds
        self.draining = draining
    }
}

public struct WorkerList: Codable, Sendable, Equatable {
    public var workers: [WorkerView]

    public init(workers: [WorkerView]) { self.workers = workers }
}

/// What claims skip: everything (`paused`) and/or the listed clubs. Answer of the pause and resume routes.
public struct PauseStateView: Codable, Sendable, Equatable {
    public var paused: Bool
    public var pausedClubs: [String]

    public init(paused: Bool, pausedClubs: [String]) {
        self.paused = paused
        self.pausedClubs = pausedClubs
    }
}
