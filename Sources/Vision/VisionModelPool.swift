import ReelworkCore

/// Loaded model sets kept between jobs, so a worker loads its models once per slot instead of once
/// per job. `checkout` hands out an idle set for the same settings, or loads a new one; `checkin`
/// returns it. At most as many sets exist as jobs ever ran at once in this process.
///
/// Thread-safe.
public final class VisionModelPool: @unchecked Sendable {
    /// The process's pool (workers and `reelwork analyze` use it).
    public static let shared = VisionModelPool()

    private struct Key: Hashable {
        var settings: VisionSettings
        var threads: Int
    }

    private let idle = LockedValue<[Key: [VisionModels]]>([:])

    public init() {}

    /// An idle model set for `settings` with `threads` intra-op threads, or a freshly loaded one.
    /// Throws what `VisionModels` throws on loading. Give the set back with `checkin` when done.
    public func checkout(_ settings: VisionSettings, threads: Int) throws -> VisionModels {
        let key = Key(settings: settings, threads: threads)
        if let models = idle.withLock({ $0[key]?.popLast() }) { return models }
        // Loading takes a while; the lock is not held meanwhile.
        return try VisionModels(settings: settings, threads: threads)
    }

    /// Returns a set to the pool for the next job.
    public func checkin(_ models: VisionModels) {
        let key = Key(settings: models.settings, threads: models.threads)
        idle.withLock { $0[key, default: []].append(models) }
    }

    /// Loads one set and keeps it for the first job: a worker calls this at start, so a wrong
    /// path or unusable model stops it at once with the reason instead of failing every job.
    public func preload(_ settings: VisionSettings, threads: Int) throws {
        checkin(try checkout(settings, threads: threads))
    }

    /// Drops every idle set (their sessions are released).
    public func removeAll() {
        idle.withLock { $0.removeAll() }
    }
}
