import Foundation
import ReelworkCore
import Store

extension Backends {
    /// Stores the next confirmed version of job `jobId` in `table` and counts, in
    /// `reelwork_corrections_total`, the corrections it holds that the version just before it did
    /// not. The version before is read by number after the insert, so two versions stored at once
    /// are each counted against their own predecessor and no correction is counted twice.
    func storeConfirmation(_ table: ConfirmationRepository.Table, sport: String, jobId: UUID,
                           corrections: JSONValue, confirmed: JSONValue) async throws -> Confirmation {
        let (confirmation, previous) = try await sql { db in
            let repository = ConfirmationRepository(db, table)
            let added = try repository.add(jobId: jobId, corrections: corrections, confirmed: confirmed)
            return (added, try repository.version(added.version - 1, jobId: jobId))
        }
        CorrectionMetric.count(sport: sport, corrections: confirmation.corrections, previous: previous?.corrections)
        return confirmation
    }
}
