import Pipeline
import ReelworkCore

/// Takes the pipeline's progress reports and ignores them.
final class QuietReporter: StageReporter {
    func stageStarted(_ stage: StageName, framesPlanned: Int?) throws {}
    func stageProgress(_ stage: StageName, framesDone: Int, framesPlanned: Int?) throws {}
    func stageFinished(_ stage: StageName, status: StageStatus, framesDone: Int?, error: (any ClassifiedError)?) throws {}
}
