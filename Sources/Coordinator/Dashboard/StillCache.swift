import Foundation
import Threading

/// The dashboard's stills of videos (PNG), kept in memory up to `capacityBytes`, the least recently
/// used dropped first. A still is decoded from the video on demand, which costs a seek and a decode;
/// the same job, time and width give the same picture, so a page reloaded or a user paging back
/// costs nothing. Keys are quantised (`key(job:seconds:width:)`) so that asking for 1.0001 s or
/// 641 px cannot defeat the cache.
final class StillCache: Sendable {
    static let defaultCapacityBytes = 32 << 20
    /// Times are rounded to this many seconds, widths up to a multiple of `widthStep` pixels.
    static let timeStep = 0.01
    static let widthStep = 32

    let capacityBytes: Int
    private let state = LockedValue(State())

    private struct State {
        var pictures: [String: (png: [UInt8], used: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    init(capacityBytes: Int = defaultCapacityBytes) { self.capacityBytes = capacityBytes }

    /// The time and width a request is served at, and the cache key for them.
    static func key(job: UUID, seconds: Double, width: Int) -> (key: String, seconds: Double, width: Int) {
        let time = (seconds / timeStep).rounded() * timeStep
        let pixels = (width + widthStep - 1) / widthStep * widthStep
        return ("\(job.uuidString.lowercased())|\(Int((time / timeStep).rounded()))|\(pixels)", time, pixels)
    }

    func picture(_ key: String) -> [UInt8]? {
        state.withLock { state in
            guard let found = state.pictures[key] else { return nil }
            state.clock += 1
            state.pictures[key] = (found.png, state.clock)
            return found.png
        }
    }

    func store(_ key: String, _ png: [UInt8]) {
        guard png.count <= capacityBytes else { return }
        state.withLock { state in
            if let old = state.pictures[key] { state.bytes -= old.png.count }
            state.clock += 1
            state.pictures[key] = (png, state.clock)
            state.bytes += png.count
            while state.bytes > capacityBytes, let oldest = state.pictures.min(by: { $0.value.used < $1.value.used }) {
                state.pictures[oldest.key] = nil
                state.bytes -= oldest.value.png.count
            }
        }
    }

    /// Pictures and bytes held now (for tests).
    var usage: (count: Int, bytes: Int) { state.withLock { ($0.pictures.count, $0.bytes) } }
}
