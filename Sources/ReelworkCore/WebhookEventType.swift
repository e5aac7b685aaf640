/// The events a webhook endpoint can subscribe to (the `type` of a delivery's body).
public enum WebhookEventType: String, Codable, CaseIterable, Sendable {
    case jobSucceeded = "job.succeeded"
    case jobFailed = "job.failed"
    case jobCancelled = "job.cancelled"
    case batchCompleted = "batch.completed"

    /// The event a job's terminal status announces; nil for a status that is not terminal.
    public static func forJob(_ status: JobStatus) -> WebhookEventType? {
        switch status {
        case .succeeded: .jobSucceeded
        case .failed: .jobFailed
        case .cancelled: .jobCancelled
        case .queued, .running, .retryScheduled: nil
        }
    }

    /// Parses a list of event names (duplicates dropped, order kept), or explains which name is unknown.
    public static func parseList(_ names: [String]) throws -> [WebhookEventType] {
        guard !names.isEmpty else {
            throw ReelworkError.invalidRequest("events is empty; subscribe to at least one of: \(allNames)")
        }
        var events: [WebhookEventType] = []
        for name in names {
            guard let event = WebhookEventType(rawValue: name) else {
                let shown = String(name.unicodeScalars.prefix(64).map { $0.escaped(asASCII: true) }.joined())
                throw ReelworkError.invalidRequest("'\(shown)' is not a webhook event; the events are: \(allNames)")
            }
            if !events.contains(event) { events.append(event) }
        }
        return events
    }

    static var allNames: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
