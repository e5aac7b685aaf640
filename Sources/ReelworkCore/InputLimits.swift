/// What a client may send: the bounds that keep one request or one file from taking a process's
/// memory, disk, time or connections. Each is a setting with a default (docs/CONFIGURATION.md's table says
/// what each protects); `fromEnvironment` refuses values that would switch a protection off.
public struct InputLimits: Sendable, Equatable {
    /// Longest video accepted (upload and worker). Protects decode time and result size.
    public var maxVideoSeconds = 7200.0
    /// Largest picture, in either orientation (a portrait 4320×7680 clip fits a 7680×4320 limit).
    /// Protects memory: one decoded frame of W×H costs about 1.5 × W × H bytes, an RGB copy 3 × W × H.
    public var maxFrameWidth = 7680
    public var maxFrameHeight = 4320
    /// Most frames (declared, or estimated from duration × frame rate). Protects the per-frame stages.
    public var maxFrames = 1_000_000
    /// Largest JSON request body. Protects memory and the stored job options.
    public var maxJSONBytes = 256 * 1024
    /// Most items one page of a list may ask for.
    public var maxPageSize = 500
    /// Uploads one coordinator receives at once; more get 503 with Retry-After. Protects disk
    /// bandwidth and the probe's CPU.
    public var maxConcurrentUploads = 8
    /// A connection that sends nothing for this long is closed (a half-sent upload is deleted).
    /// Protects connections and temporary disk from clients that stall.
    public var idleTimeoutSeconds = 30.0
    /// An upload must arrive at this many bytes a second on average once `uploadRateGraceSeconds`
    /// have passed (128 kbit/s: a phone on a poor uplink keeps it), and all of it within
    /// `maxUploadSeconds` (500 MiB takes about 70 minutes at 1 Mbit/s); past either it is cut with
    /// 408 and its partial file deleted. Protects upload slots from clients that send a byte now and then.
    public var minUploadBytesPerSecond = 16 * 1024
    public var uploadRateGraceSeconds = 30.0
    public var maxUploadSeconds = 7200.0
    /// An upload in parts (`POST /v1/uploads`) not completed within this many hours is abandoned:
    /// its parts are dropped from the store. A day lets a client resume after a night offline.
    public var uploadExpiryHours = 24
    /// How long a presigned part URL stays good: a part of a few MiB on a poor uplink takes minutes,
    /// and a client asks for a fresh URL when one expires anyway. Shorter limits what a leaked URL
    /// can write. S3 accepts at most a week.
    public var uploadPartURLSeconds = 3600
    /// Largest result document a run may store. Protects PostgreSQL (a jsonb value must stay far
    /// below its 255 MB limit) and every reader of the result.
    public var maxResultBytes = 64 * 1024 * 1024

    public init() {}

    public enum Env {
        public static let maxVideoSeconds = "REELWORK_MAX_VIDEO_SECONDS"
        public static let maxFrameSize = "REELWORK_MAX_FRAME_SIZE"
        public static let maxFrames = "REELWORK_MAX_FRAMES"
        public static let maxJSONBytes = "REELWORK_MAX_JSON_BYTES"
        public static let maxPageSize = "REELWORK_MAX_PAGE_SIZE"
        public static let maxConcurrentUploads = "REELWORK_MAX_CONCURRENT_UPLOADS"
        public static let idleTimeoutSeconds = "REELWORK_IDLE_TIMEOUT_SECONDS"
        public static let minUploadBytesPerSecond = "REELWORK_MIN_UPLOAD_BYTES_PER_SECOND"
        public static let uploadRateGraceSeconds = "REELWORK_UPLOAD_RATE_GRACE_SECONDS"
        public static let maxUploadSeconds = "REELWORK_MAX_UPLOAD_SECONDS"
        public static let maxResultBytes = "REELWORK_MAX_RESULT_BYTES"
        public static let uploadExpiryHours = "REELWORK_UPLOAD_EXPIRY_HOURS"
        public static let uploadPartURLSeconds = "REELWORK_UPLOAD_PART_URL_SECONDS"
    }

    /// Pixels of the largest picture allowed (FFmpeg's decoders refuse frames past it).
    public var maxPixels: Int { maxFrameWidth * maxFrameHeight }

    /// Reads the environment; a value that is not a positive number (or `WxH`) is an error naming the variable.
    public static func fromEnvironment(_ env: [String: String]) throws -> InputLimits {
        var limits = InputLimits()
        func whole(_ name: String, _ value: inout Int, max: Int) throws { try ReelworkConfig.whole(name, env, &value, in: 1...max) }
        if let text = env[Env.maxVideoSeconds], !text.isEmpty {
            guard let v = Double(text), v.isFinite, v > 0 else {
                throw ReelworkError.configuration("\(Env.maxVideoSeconds)='\(text)' must be a positive number of seconds")
            }
            limits.maxVideoSeconds = v
        }
        if let text = env[Env.maxFrameSize], !text.isEmpty {
            let parts = text.lowercased().split(separator: "x")
            // 65535 is the largest picture side FFmpeg's image checks allow.
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...65535).contains(w), (1...65535).contains(h) else {
                throw ReelworkError.configuration("\(Env.maxFrameSize)='\(text)' must be WIDTHxHEIGHT, e.g. 7680x4320")
            }
            (limits.maxFrameWidth, limits.maxFrameHeight) = (max(w, h), min(w, h))
        }
        try whole(Env.maxFrames, &limits.maxFrames, max: Int(Int32.max))
        try whole(Env.maxJSONBytes, &limits.maxJSONBytes, max: 64 << 20)
        try whole(Env.maxPageSize, &limits.maxPageSize, max: 10_000)
        try whole(Env.maxConcurrentUploads, &limits.maxConcurrentUploads, max: 10_000)
        try whole(Env.uploadExpiryHours, &limits.uploadExpiryHours, max: 24 * 365)
        try whole(Env.uploadPartURLSeconds, &limits.uploadPartURLSeconds, max: 7 * 86_400)
        try whole(Env.maxResultBytes, &limits.maxResultBytes, max: 200 << 20)
        try whole(Env.minUploadBytesPerSecond, &limits.minUploadBytesPerSecond, max: 1 << 30)
        try ReelworkConfig.seconds(Env.uploadRateGraceSeconds, env, &limits.uploadRateGraceSeconds, in: 0...86_400)
        try ReelworkConfig.seconds(Env.maxUploadSeconds, env, &limits.maxUploadSeconds, in: 1...604_800)
        if let text = env[Env.idleTimeoutSeconds], !text.isEmpty {
            guard let v = Double(text), v.isFinite, v > 0, v <= 86_400 else {
                throw ReelworkError.configuration("\(Env.idleTimeoutSeconds)='\(text)' must be a number of seconds from 0 to 86400")
            }
            limits.idleTimeoutSeconds = v
        }
        return limits
    }

    /// Throws `.invalidInput` naming the first limit `facts` exceeds (and the setting that raises it).
    public func check(_ facts: VideoFacts) throws {
        let long = max(facts.width, facts.height), short = min(facts.width, facts.height)
        guard short > 0 else {
            throw ReelworkError.invalidInput("the video stream declares no picture size (\(facts.width)×\(facts.height))")
        }
        if long > maxFrameWidth || short > maxFrameHeight {
            throw ReelworkError.invalidInput(
                "the picture is \(facts.width)×\(facts.height), larger than the limit of \(maxFrameWidth)×\(maxFrameHeight) (\(Env.maxFrameSize))")
        }
        if !(facts.durationSeconds <= maxVideoSeconds) {
            throw ReelworkError.invalidInput(
                "the video lasts \(Self.clock(facts.durationSeconds)), longer than the limit of \(Self.clock(maxVideoSeconds)) (\(Env.maxVideoSeconds))"
            )
        }
        if facts.frameCount > maxFrames {
            let counted = facts.frameCountSource == .estimate ? "about \(facts.frameCount) frames (estimated)" : "\(facts.frameCount) frames"
            throw ReelworkError.invalidInput("the video has \(counted), more than the limit of \(maxFrames) (\(Env.maxFrames))")
        }
    }

    /// h:mm:ss (h:mm:ss.s when there is a fraction of a second), for messages.
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "an unknown length" }
        let tenths = Int(clampedRounding: seconds * 10)
        let total = tenths / 10
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        let fraction = tenths % 10 == 0 ? "" : ".\(tenths % 10)"
        return "\(h):\(m < 10 ? "0" : "")\(m):\(s < 10 ? "0" : "")\(s)\(fraction)"
    }
}
