import ReelworkCore

/// Receives a run's stage events. The worker writes them to PostgreSQL; `reelwork analyze` prints them.
/// A reporter that throws stops the run with its error (e.g. PostgreSQL went away, or the run was told to stop).
public protocol StageReporter: AnyObject {
    func stageStarted(_ stage: StageName, framesPlanned: Int?) throws
    func stageProgress(_ stage: StageName, framesDone: Int, framesPlanned: Int?) throws
    func stageFinished(_ stage: StageName, status: StageStatus, framesDone: Int?, error: (any ClassifiedError)?) throws
    /// The stage is working, with no count to report (a video being copied): a run told to stop
    /// throws here, and a watchdog that waits for news hears some.
    func stageAlive(_ stage: StageName) throws
}

extension StageReporter {
    /// A reporter with nobody waiting for news (`reelwork analyze`'s) has nothing to do.
    public func stageAlive(_ stage: StageName) throws {}
}

/// A stage's own work failed (as opposed to the reporter or the infrastructure around it).
public struct StageFailure: Error, ClassifiedError, CustomStringConvertible {
    public let stage: StageName
    public let kind: ErrorKind
    public let message: String
    /// The error the stage threw (e.g. a MediaError saying the video's server failed).
    public var underlying: (any Error)? = nil

    public var description: String { "\(stage.rawValue): \(message)" }
}
