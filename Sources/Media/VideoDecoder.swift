import CFFmpeg
import ReelworkCore

/// Decodes one video's frames, samples their brightness, and hands sampled frames on as RGB.
///
/// Owns the demuxer, decoder, packet, frame, scalers and RGB buffer for that video; all are
/// reused from frame to frame and freed when the VideoDecoder is. One thread uses a VideoDecoder
/// at a time; separate VideoDecoders may run on separate threads at once.
public final class VideoDecoder {
    /// The video's facts, as `MediaProbe.probe` reports them.
    public let facts: VideoFacts

    private let options: DecodeOptions
    private let demuxer: Demuxer
    private let streamIndex: Int32
    private let decoder: StreamDecoder
    private let packet: Packet
    private let frame: Frame
    private let luma = LumaMeter()
    private let rgb: RGBConverter
    private let timeBase: Double
    private let startTimestamp: Int64
    private var used = false

    /// Opens `location`, picks its best video stream and opens a decoder for it.
    /// Throws MediaError like `MediaProbe.probe` does (without packet verification).
    public init(location: String, options: DecodeOptions = DecodeOptions()) throws {
        self.options = options
        rgb = RGBConverter(flags: options.colorConversion.swscaleFlags)
        demuxer = try Demuxer(location: MediaLocation(location), guards: options.guards)
        streamIndex = try demuxer.bestVideoStreamIndex()
        facts = PhotoOrientation.apply(to: VideoFacts(demuxer, streamIndex: streamIndex), location: location, guards: options.guards)
        // A file cut short after its index would otherwise decode "successfully" with fewer frames.
        try demuxer.checkIndexFitsInFile()
        // Audio and other packets are never needed; where the container allows it, they are not even read.
        demuxer.discardAllStreams(except: streamIndex)
        decoder = try StreamDecoder(demuxer, streamIndex: streamIndex, threads: options.threads, guards: options.guards)
        packet = try Packet()
        frame = try Frame()
        let stream = demuxer.stream(streamIndex).pointee
        timeBase = av_q2d(stream.time_base)
        startTimestamp = stream.start_time == FFmpegStatus.noPTS ? 0 : stream.start_time
    }

    /// The picture's size as displayed: the coded size, swapped for a 90° or 270° rotation.
    public var displaySize: (width: Int, height: Int) {
        facts.rotation == 90 || facts.rotation == 270 ? (facts.height, facts.width) : (facts.width, facts.height)
    }

    /// Decodes every frame of the video stream and returns the count and quality samples.
    ///
    /// Every `qualitySampleInterval` seconds of presentation time (measured from the stream's
    /// start) one frame is measured (`LumaMeter`); other frames are only counted. `progress`
    /// gets the number of frames decoded so far about every 30 frames and once at the end;
    /// when it throws, decoding stops and that error propagates (this is how callers cancel).
    /// A packet the decoder rejects mid-stream is skipped and counted in `damagedPackets`.
    /// The decoder is flushed at the end of the stream, so the count is exact.
    ///
    /// Throws `.invalidInput` "no frame could be decoded: …" when not a single frame decodes,
    /// and the demuxer's errors (truncated file, network failure). Call it once per decoder.
    public func decodeAll(progress: (Int) throws -> Void) throws -> DecodeReport {
        try decodeAll(sampling: nil, progress: progress, onSample: { _ in })
    }

    /// Decodes the video like `decodeAll(progress:)` and, for each frame `sampling` selects,
    /// converts it to RGB in display orientation (the rotation applied) and calls `onSample` with
    /// it, before the next frame is decoded. The frame's `image` is only valid inside the call.
    /// Errors thrown by `onSample` stop decoding and propagate unchanged.
    ///
    /// With `.fps` sampling (and `DecodeOptions.dropsUnsampledFrames`), frames that neither
    /// `sampling` nor the quality samples pick and that no other frame refers to are left
    /// undecoded (`FrameSkipPlanner`); they are still counted, and every frame handed on has the
    /// same number, time and pixels as with every frame decoded.
    ///
    /// Allocates nothing per frame: the packet, frame, RGB buffer and scaler are reused.
    public func decodeAll(sampling: FrameSampling, progress: (Int) throws -> Void,
                          onSample: (SampledFrame) throws -> Void) throws -> DecodeReport {
        try decodeAll(sampling: Optional(sampling), progress: progress, onSample: onSample)
    }

    private func decodeAll(sampling: FrameSampling?, progress: (Int) throws -> Void,
                           onSample: (SampledFrame) throws -> Void) throws -> DecodeReport {
        guard !used else { throw MediaError(kind: .internal, message: "decodeAll was already called on this decoder") }
        used = true
        return try withoutActuallyEscaping(progress) { progress in
            try withoutActuallyEscaping(onSample) { onSample in
                try decodeStream(sampling, FrameHandlers(progress: progress, onSample: onSample))
            }
        }
    }

    private func decodeStream(_ sampling: FrameSampling?, _ stages: FrameHandlers) throws -> DecodeReport {
        let schedule = SampleSchedule(interval: options.qualitySampleInterval)
        let sampler = sampling.map(FrameSampler.init)
        // Frames may be left out only when the handed-on frames are picked by time, like the quality samples.
        let planner = FrameSkipPlanner(slots: [schedule.slot(at:), { sampler?.slot(at: $0) }],
                                       seconds: { [startTimestamp, timeBase] in Self.seconds($0, start: startTimestamp, timeBase: timeBase) },
                                       enabled: options.dropsUnsampledFrames && sampler?.slot(at: 0) != nil)
        var run = DecodeRun(schedule: schedule, sampler: sampler, planner: planner)
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == streamIndex else { continue }
            try decode(packet, dropping: run.planner.mayDrop(pts: packet.timestamp), &run, stages)
        }
        packet.unref()
        try decode(nil, dropping: false, &run, stages) // drain the frames the decoder still holds (reordering, threads)
        run.framesDecoded += run.planner.finish()

        guard run.framesDecoded > 0 else {
            let reason = run.lastError.map(FFmpegStatus.message(for:)) ?? "the video stream has no packets"
            throw MediaError.invalidInput("no frame could be decoded: \(reason)")
        }
        try stages.progress(run.framesDecoded)
        return DecodeReport(framesDecoded: run.framesDecoded, qualitySamples: run.samples,
                            damagedPackets: run.damagedPackets, framesSampled: run.framesSampled,
                            framesDropped: run.planner.dropped)
    }

    /// The caller's callbacks for one decodeAll call. They never outlive the call (see
    /// `withoutActuallyEscaping` there).
    private struct FrameHandlers {
        let progress: (Int) throws -> Void
        let onSample: (SampledFrame) throws -> Void
    }

    /// The state of one decodeAll call.
    private struct DecodeRun {
        var schedule: SampleSchedule
        var sampler: FrameSampler?
        var planner: FrameSkipPlanner
        /// Frames so far, in presentation order: decoded, or dropped undecoded (`planner`).
        var framesDecoded = 0
        var framesSampled = 0
        var samples: [FrameQualitySample] = []
        var damagedPackets = 0
        var lastError: Int32?

        mutating func damaged(_ status: Int32) {
            damagedPackets += 1
            lastError = status
        }
    }

    /// Sends `packet` (nil = end of stream) and receives every frame it makes available. With
    /// `dropping`, the decoder leaves the packet's frame out if no other frame refers to it.
    private func decode(_ packet: Packet?, dropping: Bool, _ run: inout DecodeRun, _ handlers: FrameHandlers) throws {
        let draining = packet == nil
        while true {
            switch decoder.send(packet, droppingIfUnreferenced: dropping) {
            case .accepted:
                try receiveFrames(&run, untilFinished: draining, handlers)
                return
            case .full:
                // The decoder wants its output taken first; then the same packet goes again.
                let before = run.framesDecoded
                try receiveFrames(&run, untilFinished: false, handlers)
                // "Full" yet nothing to take would loop forever; drop the packet instead.
                if run.framesDecoded == before {
                    run.damaged(FFmpegStatus.tryAgain)
                    run.planner.refused(pts: packet?.timestamp)
                    return
                }
            case .rejected(let status):
                run.damaged(status) // skip it; the next packets usually decode fine
                run.planner.refused(pts: packet?.timestamp)
                return
            }
        }
    }

    private func receiveFrames(_ run: inout DecodeRun, untilFinished: Bool, _ handlers: FrameHandlers) throws {
        while true {
            switch decoder.receive(into: frame) {
            case .frame:
                let before = run.framesDecoded
                // Frames dropped before this one count first, so it keeps its number.
                run.framesDecoded += run.planner.frameOut(pts: frame.packetTimestamp, timestamp: frame.timestamp) + 1
                let time = presentationTime(frameNumber: run.framesDecoded)
                sampleQualityIfDue(&run, time: time)
                try handOnIfDue(&run, time: time, handlers.onSample)
                if run.framesDecoded / 30 != before / 30 { try handlers.progress(run.framesDecoded) }
            case .needsInput, .finished:
                return
            case .failed(let status):
                run.damaged(status)
                // While draining there is no more input to send, so keep receiving the rest.
                if !untilFinished { return }
            }
        }
    }

    /// Seconds from the stream's start of the frame just received (the `frameNumber`-th, 1-based):
    /// from its timestamp, so variable frame rates come out right; from the frame rate only when
    /// the frame has no timestamp at all.
    private func presentationTime(frameNumber: Int) -> Double {
        if let timestamp = frame.timestamp { return Self.seconds(timestamp, start: startTimestamp, timeBase: timeBase) }
        return facts.fps > 0 ? Double(frameNumber - 1) / facts.fps : 0
    }

    /// Seconds from the stream's start of a timestamp in stream time-base units.
    private static func seconds(_ timestamp: Int64, start: Int64, timeBase: Double) -> Double {
        // In Double: timestamps come from the file, and their Int64 difference can overflow.
        max(0, (Double(timestamp) - Double(start)) * timeBase)
    }

    private func sampleQualityIfDue(_ run: inout DecodeRun, time: Double) {
        guard run.schedule.isDue(at: time), let stats = luma.measure(frame) else { return }
        run.samples.append(FrameQualitySample(time: time, meanLuminance: stats.mean, variance: stats.variance))
    }

    private func handOnIfDue(_ run: inout DecodeRun, time: Double, _ onSample: (SampledFrame) throws -> Void) throws {
        guard run.sampler?.isDue(time: time, index: run.framesDecoded - 1) == true else { return }
        let image = try rgb.convert(frame, rotation: facts.rotation)
        let sample = SampledFrame(frameIndex: run.framesDecoded - 1, sampleIndex: run.framesSampled, time: time, image: image)
        run.framesSampled += 1
        try onSample(sample)
    }
}
