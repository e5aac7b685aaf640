/// Luminance statistics of one sampled frame (8-bit luma, 0–255).
public struct FrameQualitySample: Codable, Sendable, Equatable {
    public var time: Double
    public var meanLuminance: Double
    public var variance: Double

    public init(time: Double, meanLuminance: Double, variance: Double) {
        self.time = time
        self.meanLuminance = meanLuminance
        self.variance = variance
    }
}

/// A warning attached to a job's result: it does not fail the job.
public struct Warning: Codable, Sendable, Equatable {
    public var code: String
    public var message: String
    /// How many sampled frames showed it, of how many sampled.
    public var frames: Int?
    public var framesSampled: Int?
    /// Time in seconds of the first sampled frame that showed it.
    public var firstTime: Double?

    public init(code: String, message: String, frames: Int? = nil, framesSampled: Int? = nil, firstTime: Double? = nil) {
        self.code = code
        self.message = message
        self.frames = frames
        self.framesSampled = framesSampled
        self.firstTime = firstTime
    }
}

/// Seed 003's frame-quality checks (`FrameQualityThresholds`): too dark, overexposed, lens blocked.
public enum FrameQuality {
    public static let minLuminance = 40.0      // 0–255; below is too dark
    public static let maxLuminance = 250.0     // above is overexposed
    public static let minFrameVariance = 100.0 // below: lens blocked or obstructed
    /// A condition is reported when at least this share of sampled frames shows it, so one
    /// dark transition frame does not warn about a whole clip.
    public static let minShareToWarn = 0.25

    /// The warnings the samples justify, in a fixed order (dark, overexposed, blocked).
    public static func warnings(for samples: [FrameQualitySample]) -> [Warning] {
        guard !samples.isEmpty else { return [] }
        func check(_ code: String, _ message: String, _ test: (FrameQualitySample) -> Bool) -> Warning? {
            let hits = samples.filter(test)
            guard Double(hits.count) >= minShareToWarn * Double(samples.count) else { return nil }
            return Warning(code: code, message: message, frames: hits.count,
                           framesSampled: samples.count, firstTime: hits.first?.time)
        }
        // A blocked lens is also dark; report it as blocked only, which tells the person what to fix.
        let blocked = check("lens_blocked",
                            "Camera appears to be blocked. Please check that nothing is covering the lens.") {
            $0.variance < minFrameVariance && $0.meanLuminance <= maxLuminance
        }
        let dark = check("too_dark",
                         "Low light detected. Move to a brighter area or enable the flash for better tracking.") {
            $0.meanLuminance < minLuminance && $0.variance >= minFrameVariance
        }
        let bright = check("overexposed",
                           "Frames are overexposed. Reduce the light or the exposure for better tracking.") {
            $0.meanLuminance > maxLuminance
        }
        return [dark, bright, blocked].compactMap { $0 }
    }
}
