import Foundation
import ReelworkClient
import ReelworkCore
import Threading

/// Listens to `GET /v1/events` in the background and keeps everything that arrives, with when it
/// arrived, for a test to wait on and inspect.
final class EventTap: Sendable {
    struct Arrival: Sendable {
        let item: ServerSentEvent
        let at: Date

        var job: JobEvent? {
            guard case .event(_, let type, let data) = item, !type.hasPrefix("re") else { return nil }
            return try? ReelworkJSON.decoder.decode(JobEvent.self, from: Data(data.utf8))
        }
        var id: String? {
            if case .event(let id, _, _) = item { return id }
            return nil
        }
        var type: String? {
            if case .event(_, let type, _) = item { return type }
            return nil
        }
    }

    let arrivals = LockedValue<[Arrival]>([])
    let ended = LockedValue<String?>(nil)
    private let task: LockedValue<Task<Void, Never>?> = LockedValue(nil)

    init(_ client: CoordinatorClient, job: UUID? = nil, batch: UUID? = nil, lastEventId: String? = nil) {
        let arrivals = self.arrivals, ended = self.ended
        task.withLock {
            $0 = Task {
                do {
                    for try await item in client.events(job: job, batch: batch, lastEventId: lastEventId) {
                        arrivals.withLock { $0.append(Arrival(item: item, at: Date())) }
                    }
                    ended.withLock { $0 = "finished" }
                } catch {
                    ended.withLock { $0 = "\(error)" }
                }
            }
        }
    }

    deinit { task.withLock { $0?.cancel() } }

    func stop() { task.withLock { $0?.cancel() } }

    var all: [Arrival] { arrivals.withLock { $0 } }
    var events: [(id: String, event: JobEvent, at: Date)] {
        all.compactMap { arrival in arrival.job.map { (arrival.id ?? "", $0, arrival.at) } }
    }
    var isConnected: Bool { all.contains { $0.item == .comment("connected") } }
}
