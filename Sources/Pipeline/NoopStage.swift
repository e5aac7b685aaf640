import Foundation
import ReelworkCore

/// The diagnostic stage: no video, just time passing with progress, and failures on request.
struct NoopStage {
    static let tick = 0.05
    let options: NoopOptions
    let attempt: Int

    func run(progress: (Int, Int) throws -> Void) throws {
        if attempt <= options.invalidAttempts {
            throw ReelworkError.invalidInput("noop: invalid input requested for attempt \(attempt)")
        }
        let steps = max(1, Int(clampedRounding: options.seconds / Self.tick, .up))
        let start = Date()
        for step in 1...steps {
            let due = start.addingTimeInterval(Double(step) * options.seconds / Double(steps))
            let wait = due.timeIntervalSinceNow
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            try progress(step, steps)
        }
        if attempt <= options.failAttempts {
            throw ReelworkError.unavailable("noop: transient failure requested for attempt \(attempt)")
        }
    }
}
