import CFFmpeg

/// What keeps one input from holding a thread or its memory: a bound on picture size that
/// FFmpeg's decoders enforce (stream probing included), and a check that another thread can use
/// to stop a blocked read.
public struct MediaGuards: Sendable {
    /// Pixels per picture beyond which decoders refuse a frame; nil: FFmpeg's own bound.
    public var maxPixels: Int?
    /// Asked by libavformat while it waits for I/O (and between reads); true makes the pending
    /// call give up with "Immediate exit requested". It is called often: keep it cheap.
    public var shouldStop: (@Sendable () -> Bool)?
    /// Sent with every http(s) read, e.g. the worker's `Authorization: Bearer` key, which the
    /// coordinator requires before it serves a video. Never sent to a local file.
    public var httpAuthorization: String?

    public init(maxPixels: Int? = nil, shouldStop: (@Sendable () -> Bool)? = nil, httpAuthorization: String? = nil) {
        self.maxPixels = maxPixels
        self.shouldStop = shouldStop
        self.httpAuthorization = httpAuthorization
    }

    /// libavcodec options for a decoder opened on this input (the caller frees the dictionary).
    func decoderOptions() -> OpaquePointer? {
        var options: OpaquePointer? = nil
        if let maxPixels { av_dict_set(&options, "max_pixels", String(maxPixels), 0) }
        return options
    }
}

/// Owns the object an AVIOInterruptCB points at, for as long as the FFmpeg context using it lives.
final class InterruptHandle {
    private let shouldStop: @Sendable () -> Bool

    init?(_ guards: MediaGuards) {
        guard let shouldStop = guards.shouldStop else { return nil }
        self.shouldStop = shouldStop
    }

    /// The callback to give FFmpeg; valid while this handle lives.
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(callback: { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<InterruptHandle>.fromOpaque(opaque).takeUnretainedValue().shouldStop() ? 1 : 0
        }, opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}
