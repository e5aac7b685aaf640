import Pipeline
import ReelworkCore

/// Keeps every stage event of a run, in order.
final class RecordingReporter: StageReporter {
    enum Event: Equatable {
        case started(StageName, planned: Int?)
        case progress(StageName, done: Int, planned: Int?)
        case finished(StageName, StageStatus, done: Int?, kind: ErrorKind?)
    }

    private(set) var events: [Event] = []

    func stageStarted(_ stage: StageName, framesPlanned: Int?) throws {
        events.append(.started(stage, planned: framesPlanned))
    }

    func stageProgress(_ stage: StageName, framesDone: Int, framesPlanned: Int?) throws {
        events.append(.progress(stage, done: framesDone, planned: framesPlanned))
    }

    func stageFinished(_ stage: StageName, status: StageStatus, framesDone: Int?, error: (any ClassifiedError)?) throws {
        events.append(.finished(stage, status, done: framesDone, kind: error?.kind))
    }

    var started: [StageName] {
        events.compactMap { if case .started(let stage, _) = $0 { return stage } else { return nil } }
    }

    func progress(of stage: StageName) -> [Int] {
        events.compactMap { if case .progress(stage, let done, _) = $0 { return done } else { return nil } }
    }
}
