import Bowling
import ReelworkCore
import Tennis

/// Checks a new job's options before it is queued, with the same parsers the worker uses, so a
/// batch with a malformed value or an impossible calibration is refused at once instead of failing
/// job by job. (Unknown keys are ignored, as the parsers ignore them.)
enum JobOptionsCheck {
    /// Options are a few settings; deeper nesting is a mistake or an attack on every reader.
    static let maxDepth = 16

    /// `diagnostics`: whether this coordinator accepts the diagnostic `noop` pipeline.
    static func check(_ options: JSONValue, sport: Sport, diagnostics: Bool) throws {
        if options.depth > maxDepth {
            throw APIError(.badRequest, "invalid_options", "'options' is nested \(options.depth) levels deep; at most \(maxDepth) are allowed")
        }
        if options["noop"] != nil, !diagnostics {
            throw APIError(.badRequest, "invalid_options",
                           "option noop (the diagnostic pipeline) is accepted only by a coordinator started with \(ReelworkConfig.Env.diagnostics)=1")
        }
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
