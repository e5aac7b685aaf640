/// The sample indices of one swing's keyframes, found from the wrist's speed around its peak.
///
/// - preparation (window start): walking back from the backswing over the take-back (up its hump
///   of speed and down again while at least `quietFraction` × peak), the still frame just before it.
/// - backswing: walking back from the peak while the speed keeps falling, the slowest frame before
///   the forward acceleration, i.e. where the wrist turns around at its furthest point back (or, with
///   no take-back, the still frame where it starts forward): the walk stops at a local minimum of
///   speed or at the first frame slower than `quietFraction` × peak, whichever comes first.
/// - contact: the racket–ball closest approach if one was found in the window, else the overhead
///   contact if the wrist goes above the head near the peak (a serve: `OverheadContact`), else the peak.
/// - followThrough: the first frame after contact slower than `followThroughFraction` × peak.
/// - recovery (window end): the first still frame (< `quietFraction` × peak) after the peak.
///
/// The window never leaves the peak's segment, reaches at most `maxWindowBefore`/`maxWindowAfter`
/// from the peak and stops halfway to a neighbouring peak. Indices are in order by construction:
/// preparation ≤ backswing ≤ contact ≤ followThrough ≤ recovery.
struct SwingPhases: Equatable {
    var preparation: Int
    var backswing: Int
    var peak: Int
    var contact: Int
    /// Whether `contact` came from the racket–ball closest approach.
    var contactFromObjects: Bool
    /// Whether `contact` is the speed peak itself (no racket–ball approach, no overhead contact).
    var contactAtPeak: Bool
    var followThrough: Int
    var recovery: Int

    /// The window for the peak at `peak`; `previousPeak`/`nextPeak` are the neighbouring peaks' times.
    /// `contactNear` picks a contact sample inside a window from the racket and ball (or nil);
    /// `overheadNear` from the wrist above the head (or nil to use the peak).
    static func around(peak: Int, in samples: [TrackKinematics.Sample], previousPeak: Double?, nextPeak: Double?,
                       contactNear: (ClosedRange<Int>) -> Int?,
                       overheadNear: (ClosedRange<Int>) -> Int? = { _ in nil }) -> SwingPhases {
        let peakTime = samples[peak].time
        let peakSpeed = samples[peak].speed ?? 0
        let quiet = SwingTuning.quietFraction * peakSpeed
        func speed(_ i: Int) -> Double { samples[i].speed ?? 0 }

        // The furthest samples the window may reach on each side.
        var lower = peak
        while lower > 0, samples[lower - 1].segment == samples[peak].segment,
              peakTime - samples[lower - 1].time <= SwingTuning.maxWindowBefore,
              previousPeak.map({ samples[lower - 1].time > ($0 + peakTime) / 2 }) ?? true {
            lower -= 1
        }
        var upper = peak
        while upper + 1 < samples.count, samples[upper + 1].segment == samples[peak].segment,
              samples[upper + 1].time - peakTime <= SwingTuning.maxWindowAfter,
              nextPeak.map({ samples[upper + 1].time < ($0 + peakTime) / 2 }) ?? true {
            upper += 1
        }

        // Stopping at the first still frame keeps pose jitter on a motionless wrist (tiny speeds
        // that happen to keep falling) from dragging the backswing back into the preparation.
        var backswing = peak
        while backswing > lower, speed(backswing) >= quiet, speed(backswing - 1) < speed(backswing) { backswing -= 1 }
        // Back over the take-back: up its hump of speed, then down it until the wrist is still.
        // A hump that never reaches `quiet` is jitter, not a take-back.
        var preparation = backswing
        while preparation > lower, speed(preparation - 1) > speed(preparation) { preparation -= 1 }
        if speed(preparation) >= quiet {
            while preparation > lower, speed(preparation - 1) >= quiet { preparation -= 1 }
        } else {
            preparation = backswing
        }
        if preparation > lower { preparation -= 1 }

        var recovery = peak
        while recovery < upper, speed(recovery + 1) >= quiet { recovery += 1 }
        if recovery < upper { recovery += 1 }

        let found = contactNear(preparation...recovery)
        let overhead = found == nil ? overheadNear(preparation...recovery) : nil
        let contact = found ?? overhead ?? peak
        backswing = min(backswing, contact)
        preparation = min(preparation, backswing)
        var followThrough = contact
        while followThrough < recovery {
            followThrough += 1
            if speed(followThrough) < SwingTuning.followThroughFraction * peakSpeed { break }
        }
        return SwingPhases(preparation: preparation, backswing: backswing, peak: peak, contact: contact,
                           contactFromObjects: found != nil, contactAtPeak: found == nil && overhead == nil,
                           followThrough: followThrough, recovery: recovery)
    }

    /// The keyframes' times. A contact at the wrist's speed peak lies where the speed is highest
    /// between samples (`PeakFinder.refinedTime`), so a stroke sampled at 24 fps, or one whose
    /// fastest part fell in a gap of unsure wrists, is not held to a sample's time. It stays
    /// inside the window, and a backswing or follow-through on the wrong side of it moves to it,
    /// so the keyframes stay in order. Every other keyframe is its sample's time.
    func keyFrameTimes(in samples: [TrackKinematics.Sample]) -> KeyFrameTimes {
        let start = samples[preparation].time, end = samples[recovery].time
        let contactTime = contactAtPeak ? min(max(PeakFinder.refinedTime(of: peak, in: samples), start), end) : samples[contact].time
        return KeyFrameTimes(preparation: start, backswing: min(samples[backswing].time, contactTime), contact: contactTime,
                             followThrough: max(samples[followThrough].time, contactTime), recovery: end)
    }
}
