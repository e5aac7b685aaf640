import Foundation
import Vision

/// Runs the pose model on a thread of its own, so the poses of one sampled frame are estimated
/// while the decoder and the detector already work on the next ones: on 2 cores the streamed pass
/// otherwise leaves a core idle whenever one stage waits for another (docs/benchmarks/vision.md, "end to end").
///
/// The caller prepares each person's crop (it needs the frame's pixels, valid only during the
/// decode callback) into a tensor from `tensor()`, and `submit`s it; results come back, in
/// submission order, from `drain()` as they are ready, from `waitForAll()` when the caller needs
/// a frame's poses before going on (people followed by their landmarks), and from `finish()` at
/// the end. At most `depth` crops wait and the caller drains as it goes, so memory stays flat.
final class PoseWorker: @unchecked Sendable {
    // Safe: the queues and flags are touched only with `condition` locked; `estimator` runs on the pose thread.

    /// One person in one sampled frame.
    struct Job {
        var time: Double
        var trackId: Int
        var box: BoundingBox
        /// The detector saw them in this frame (a coasting track's pose counts only when confident).
        var detected: Bool
        var crop: PoseCrop
        var tensor: [Float]
    }

    struct Estimate {
        var time: Double
        var trackId: Int
        var box: BoundingBox
        var detected: Bool
        var pose: Pose
    }

    static let depth = 4

    private let estimator: PoseEstimator
    private let condition = NSCondition()
    private var waiting: [Job] = []
    private var spareTensors: [[Float]] = []
    private var estimates: [Estimate] = []
    /// A job taken off `waiting` whose estimate is not in `estimates` yet.
    private var busy = false
    private var failure: (any Error)?
    private var closed = false
    private var stopped = false

    init(estimator: PoseEstimator) {
        self.estimator = estimator
        let thread = Thread { [self] in loop() }
        thread.name = "reelwork-pose"
        thread.start()
    }

    /// A tensor for the next crop (a spare one when there is one, so steady state allocates nothing).
    func tensor() -> [Float] {
        condition.lock()
        defer { condition.unlock() }
        return spareTensors.popLast() ?? [Float](repeating: 0, count: estimator.inputElementCount)
    }

    /// Takes back a tensor that was not submitted (its crop was empty).
    func recycle(_ tensor: [Float]) {
        condition.lock()
        defer { condition.unlock() }
        spareTensors.append(tensor)
    }

    /// Queues a crop; waits while `depth` crops are waiting. Throws the worker's error, if it failed.
    func submit(_ job: Job) throws {
        condition.lock()
        defer { condition.unlock() }
        precondition(!closed, "PoseWorker.submit after finish or cancel")
        while waiting.count >= Self.depth && failure == nil { condition.wait() }
        if let failure { throw failure }
        waiting.append(job)
        condition.broadcast()
    }

    /// The estimates finished since the last call, in submission order.
    func drain() -> [Estimate] {
        condition.lock()
        defer { condition.unlock() }
        let done = estimates
        estimates.removeAll(keepingCapacity: true)
        return done
    }

    /// Waits until every crop submitted so far is estimated and returns the estimates not drained
    /// yet, in submission order, or the first error. The worker stays open for more.
    func waitForAll() throws -> [Estimate] {
        condition.lock()
        defer { condition.unlock() }
        while (!waiting.isEmpty || busy) && failure == nil { condition.wait() }
        if let failure { throw failure }
        let done = estimates
        estimates.removeAll(keepingCapacity: true)
        return done
    }

    /// Waits for every queued crop and returns the estimates not drained yet, in submission order,
    /// or the first error.
    func finish() throws -> [Estimate] {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.broadcast()
        while !stopped { condition.wait() }
        if let failure { throw failure }
        let done = estimates
        estimates.removeAll()
        return done
    }

    /// Stops the thread without waiting for queued crops (the pass failed); safe to call after `finish`.
    func cancel() {
        condition.lock()
        defer { condition.unlock() }
        waiting.removeAll()
        closed = true
        condition.broadcast()
        while !stopped { condition.wait() }
    }

    private func loop() {
        while true {
            condition.lock()
            while waiting.isEmpty && !closed { condition.wait() }
            guard !waiting.isEmpty else { break }
            let job = waiting.removeFirst()
            busy = true
            condition.broadcast()
            condition.unlock()
            do {
                let pose = try estimator.estimate(preprocessed: job.tensor, crop: job.crop)
                condition.lock()
                estimates.append(Estimate(time: job.time, trackId: job.trackId, box: job.box, detected: job.detected, pose: pose))
                spareTensors.append(job.tensor)
                busy = false
                condition.broadcast()
                condition.unlock()
            } catch {
                condition.lock()
                busy = false
                failure = error
                waiting.removeAll()
                break
            }
        }
        // Holding the lock here (from the break).
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
