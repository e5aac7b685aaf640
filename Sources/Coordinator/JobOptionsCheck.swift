import Hummingbird
import ReelworkCore
import Sports

/// Checks a new job's options before it is queued, with the same parsers the worker uses, so a
/// batch with a malformed value or an impossible calibration is refused at once instead of failing
/// job by job. A key the sport does not read is refused too (`OptionKeys`): a misspelt option
/// would otherwise be ignored by every run of the job.
enum JobOptionsCheck {
    /// Options are a few settings; deeper nesting is a mistake or an attack on every reader.
    static let maxDepth = 16

    /// `diagnostics`: whether this coordinator accepts the diagnostic `noop` pipeline.
    static func check(_ options: JSONValue, sport: Sport, diagnostics: Bool) throws {
        if options.depth > maxDepth {
            throw APIError(.badRequest, "invalid_options", "'options' is nested \(options.depth) levels deep; at most \(maxDepth) are allowed")
        }
        if let path = Self.textWithNUL(in: options, path: "options") {
            // PostgreSQL's jsonb cannot hold U+0000: refused here rather than by the database.
            throw APIError(.badRequest, "invalid_options", "\(path) contains the NUL character (\\u0000), which options may not hold")
        }
        if options["noop"] != nil, !diagnostics {
            throw APIError(.badRequest, "invalid_options",
                           "option noop (the diagnostic pipeline) is accepted only by a coordinator started with \(ReelworkConfig.Env.diagnostics)=1")
        }
        do {
            if try OptionKeys.refusingUnknown({ try NoopOptions.parse(options) }) != nil { return }
            try SportRegistry.checkOptions(options, sport: sport)
        } catch let error as ReelworkError {
            // Options only a person can fix (an impossible lane calibration) keep their own code.
            if case .needsPerson(let message) = error { throw APIError(.unprocessableContent, "needs_person", message) }
            throw APIError(.badRequest, "invalid_options", error.message)
        }
    }

    /// Options that name pixels (basketball's `hoop`) against the job's video as displayed: one
    /// outside the frame is refused (400 `invalid_options`) before the job exists.
    static func check(_ options: JSONValue, sport: Sport, video facts: VideoFacts) throws {
        let turned = facts.rotation == 90 || facts.rotation == 270
        do {
            try SportRegistry.checkOptions(options, sport: sport, frameWidth: turned ? facts.height : facts.width,
                                           frameHeight: turned ? facts.width : facts.height)
        } catch let error as ReelworkError {
            throw APIError(.badRequest, "invalid_options", error.message)
        }
    }

    /// Where a string or key holding U+0000 is, if anywhere.
    static func textWithNUL(in value: JSONValue, path: String) -> String? {
        switch value {
        case .string(let text): return text.unicodeScalars.contains("\u{0}") ? path : nil
        case .array(let items):
            return items.indices.lazy.compactMap { textWithNUL(in: items[$0], path: "\(path)[\($0)]") }.first
        case .object(let fields):
            for (key, field) in fields {
                if key.unicodeScalars.contains("\u{0}") { return "a key of \(path)" }
                if let found = textWithNUL(in: field, path: "\(path).\(key)") { return found }
            }
            return nil
        default: return nil
        }
    }
}
