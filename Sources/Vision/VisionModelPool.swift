import ReelworkCore
import Threading

/// Hands model sets to jobs. `checkout` gives an idle set for the same settings, or loads a new one;
/// `checkin` takes it back: kept for the next job when `keepsIdleModels`, else released.
///
/// Released by default: loading both models takes about 0.1 s (against ~30 s of analysis per minute
/// of video), while keeping them costs ~90 MiB per slot that the finished job's result document can
/// use instead (docs/benchmarks/vision.md, memory). At most as many sets exist as jobs run at once.
///
/// Thread-safe.
public final class VisionModelPool: Sendable {
    /// The process's pool (workers and `reelwork analyze` use it).
    public static let shared = VisionModelPool()

    /// Whether a returned set is kept for the next job (true) or released (false).
    public let keepsIdleModels: Bool

    private struct Key: Hashable {
        var settings: VisionSettings
        var threads: Int
    }

    private let idle = LockedValue<[Key: [VisionModels]]>([:])

    public init(keepsIdleModels: Bool = false) {
        self.keepsIdleModels = keepsIdleModels
    }

    /// An idle model set for `settings` with `threads` intra-op threads, or a freshly loaded one.
    /// Throws what `VisionModels` throws on loading. Give the set back with `checkin` when done.
    public func checkout(_ settings: VisionSettings, threads: Int) throws -> VisionModels {
        let key = Key(settings: settings, threads: threads)
        if let models = idle.withLock({ $0[key]?.popLast() }) { return models }
        // Loading takes a while; the lock is not held meanwhile.
        return try VisionModels(settings: settings, threads: threads)
    }

    /// Returns a set: kept for the next job, or released (the caller must drop its references too).
    public func checkin(_ models: VisionModels) {
        guard keepsIdleModels else { return }
        let key = Key(settings: models.settings, threads: models.threads)
        idle.withLock { $0[key, default: []].append(models) }
    }

    /// Loads one set (and keeps it for the first job if the pool keeps models): a worker calls this
    /// at start, so a wrong path or unusable model stops it at once with the reason instead of
    /// failing every job it claims.
    public func preload(_ settings: VisionSettings, threads: Int) throws {
        checkin(try checkout(settings, threads: threads))
    }

    /// Drops every idle set (their sessions are released).
    public func removeAll() {
        idle.withLock { $0.removeAll() }
    }
}
