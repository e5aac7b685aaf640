import Foundation
import ReelworkCore

/// How the dashboard writes times, durations and states: UTC everywhere (operators in several
/// zones read the same page), durations short.
enum DashboardFormat {
    static func time(_ date: Date?) -> String {
        guard let date else { return "" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }

    static func duration(_ seconds: Double?) -> String? {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return nil }
        if seconds < 10 { return String(format: "%.2f s", seconds) }
        if seconds < 120 { return String(format: "%.1f s", seconds) }
        if seconds < 7200 { return String(format: "%d min %02d s", Int(seconds) / 60, Int(seconds) % 60) }
        return String(format: "%d h %02d min", Int(seconds) / 3600, Int(seconds) % 3600 / 60)
    }

    /// The tag colour of a job status (every state decided here: a new one must choose).
    static func tone(_ status: JobStatus) -> String {
        switch status {
        case .succeeded: "good"
        case .failed: "bad"
        case .running: "live"
        case .retryScheduled, .cancelled: "warn"
        case .queued: ""
        }
    }

    /// The tag colour of an attempt's outcome; none for a name this version does not know.
    static func tone(outcome: String) -> String {
        switch AttemptOutcome(rawValue: outcome) {
        case .succeeded: "good"
        case .failed, .lost, .stalled: "bad"
        case .retry, .handedBack, .cancelled: "warn"
        case nil: ""
        }
    }

    static func shortID(_ id: UUID) -> String { String(id.uuidString.lowercased().prefix(8)) }
}
