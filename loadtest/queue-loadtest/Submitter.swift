import Foundation
import Queue
import ReelworkCore
import Store
import Synchronization

/// Submits jobs the way the coordinator does (row in PostgreSQL, then enqueue in Redis), from a few
/// threads, at a fixed rate or as fast as possible.
struct Submitter {
    let databaseURL: String
    let redisURL: String
    let queue: JobQueue
    let videoId: UUID
    let clubs: Int
    let noop: Bool
    let threads: Int

    func submit(count: Int, rate: Double) throws {
        let start = Date()
        let group = DispatchGroup()
        let firstError = Mutex<(any Error)?>(nil)
        for t in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let db = try PGConnection(databaseURL)
                    let redis = try RedisConnection(RedisURL(parsing: redisURL))
                    let jobs = JobRepository(db)
                    for i in stride(from: t, to: count, by: threads) {
                        if rate > 0 {
                            let wait = start.addingTimeInterval(Double(i) / rate).timeIntervalSinceNow
                            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                        }
                        let club = "club-\(i % clubs)"
                        var options: [String: JSONValue] = ["n": .number(Double(i))]
                        if noop { options["noop"] = .object([:]) }
                        let job = try jobs.create(NewJob(videoId: videoId, club: club, sport: Sport(rawValue: "tennis"), options: .object(options),
                                                         maxAttempts: 3, priority: "normal", dedupeKey: "load-\(i)")).job
                        try queue.enqueue(job.id, club: club, on: redis)
                    }
                } catch {
                    firstError.withLock { if $0 == nil { $0 = error } }
                }
            }
        }
        group.wait()
        if let error = firstError.withLock({ $0 }) { throw error }
    }
}
