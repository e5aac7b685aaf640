import ReelworkCore
import Sports
import Store

extension RunRepository {
    /// `complete` with the run's sport's typed rows from the registry, as the worker stores a result.
    @discardableResult
    func complete(_ run: ClaimedRun, document: AnalysisDocument, facts: VideoFacts?, stages: [StageEvent] = [],
                  maxResultBytes: Int = InputLimits().maxResultBytes) throws -> Bool {
        try complete(run, document: document, table: SportRegistry.table(for: run.sport), facts: facts, stages: stages,
                     maxResultBytes: maxResultBytes)
    }
}
