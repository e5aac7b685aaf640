import Foundation
import ReelworkClient
import ReelworkCore

/// What `jobs watch` and `batches watch` share: draw once the event stream is open, then again on
/// every event about what is watched, until `refresh` says it is over. A dropped connection is
/// resumed after the last event seen; when the coordinator has no event stream (an older one, or
/// Redis away) it polls every `interval` seconds instead, and says so once.
struct EventWatch {
    let api: CoordinatorClient
    var job: UUID? = nil
    var batch: UUID? = nil
    let interval: Double
    /// Whether an event is about what is watched.
    let relevant: (JobEvent) -> Bool
    /// Reads what is watched and draws it; true when there is nothing more to wait for.
    let refresh: () async throws -> Bool

    /// Reconnections in a row without an event before falling back to polling.
    static let maxReconnects = 5

    func run() async throws {
        var lastEventId: String?
        var failures = 0
        while true {
            var opened = false
            do {
                for try await item in api.events(job: job, batch: batch, lastEventId: lastEventId) {
                    if !opened {
                        // Subscribed first, then read: no change can fall between the two.
                        opened = true
                        if try await refresh() { return }
                    }
                    guard case .event(let id, let type, let data) = item else { continue }
                    if let id { lastEventId = id }
                    failures = 0
                    switch type {
                    case EventNotice.reconnect:
                        break
                    case EventNotice.reset:
                        if try await refresh() { return }
                        continue
                    default:
                        guard let event = try? ReelworkJSON.decoder.decode(JobEvent.self, from: Data(data.utf8)), relevant(event) else { continue }
                        if try await refresh() { return }
                        continue
                    }
                    break
                }
            } catch let error as ClientError {
                if case .api(let status, _, _) = error, [404, 405, 501, 503].contains(status), !opened {
                    Terminal.writeErr("note: live events are unavailable (\(error)); polling every \(interval) s\n")
                    return try await poll()
                }
                failures += 1
                if failures > Self.maxReconnects {
                    Terminal.writeErr("note: the event stream keeps failing (\(error)); polling every \(interval) s\n")
                    return try await poll()
                }
            }
            // The server ended the stream (shutdown, a time limit, a slow client): resume after the last event.
            try await Task.sleep(nanoseconds: UInt64(min(2, 0.2 * Double(failures + 1)) * 1e9))
        }
    }

    private func poll() async throws {
        while true {
            if try await refresh() { return }
            try await Task.sleep(nanoseconds: UInt64(interval * 1e9))
        }
    }
}
