import Foundation
import Logging
import Queue
import ReelworkCore
import Store

extension ClaimedRun {
    /// A live event about this run's job, at this run's attempt.
    func event(_ type: JobEvent.Kind, stage: String? = nil, framesDone: Int? = nil, framesPlanned: Int? = nil,
               errorKind: String? = nil, error: String? = nil) -> JobEvent {
        JobEvent(type: type, jobId: jobId, batchId: batchId, club: club, sport: sport.rawValue, stage: stage, attempt: attempt,
                 framesDone: framesDone, framesPlanned: framesPlanned, errorKind: errorKind,
                 error: error.map { String($0.prefix(JobEvent.maxErrorCharacters)) })
    }

    /// The live event of a stage event this run recorded.
    func event(_ stage: StageEvent) -> JobEvent {
        let type: JobEvent.Kind = stage.status == .running ? .stageStarted : (JobEvent.Kind.stageEnd(stage.status) ?? .stageProgress)
        return event(type, stage: stage.name.rawValue, framesDone: stage.framesDone, framesPlanned: stage.framesPlanned,
                     errorKind: stage.errorKind?.rawValue, error: stage.error)
    }
}

extension EventPublisher {
    /// The publisher of a worker process with `config`.
    init(config: ReelworkConfig, logger: Logger) {
        self.init(stream: EventStream(config: config), logger: logger)
    }
}
