import Bowling
import ReelworkCore
import Tennis

/// Checks a new job's options before it is queued, with the same parsers the worker uses, so a
/// batch with a malformed value or an impossible calibration is refused at once instead of failing
/// job by job. (Unknown keys are ignored, as the parsers ignore them.)
enum JobOptionsCheck {
    static func check(_ options: JSONValue, sport: Sport) throws {
        do {
            if try NoopOptions.parse(options) != nil { return }
            switch sport {
            case .bowling: _ = try BowlingOptions.parse(options)
            case .tennis: _ = try TennisOptions.parse(options)
            case .archery, .basketball: break
            }
        } catch let error as ReelworkError {
            // Options only a person can fix (an impossible lane calibration) keep their own code.
            if case .needsPerson(let message) = error { throw APIError(.unprocessableContent, "needs_person", message) }
            throw APIError(.badRequest, "invalid_options", error.message)
        }
    }
}
