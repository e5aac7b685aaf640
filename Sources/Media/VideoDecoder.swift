import CFFmpeg
import ReelworkCore

/// Decodes one video's frames and samples their brightness.
///
/// Owns the demuxer, decoder, packet, frame and scaler for that video; all are freed when
/// the VideoDecoder is. One thread uses a VideoDecoder at a time; separate VideoDecoders
/// may run on separate threads at once.
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
    private let timeBase: Double
    private let startTimestamp: Int64
    private var used = false

    /// Opens `location`, picks its best video stream and opens a decoder for it.
    /// Throws MediaError like `MediaProbe.probe` does (without packet verification).
    public init(location: String, options: DecodeOptions = DecodeOptions()) throws {
        self.options = options
        demuxer = try Demuxer(location: MediaLocation(location))
        streamIndex = try demuxer.bestVideoStreamIndex()
        facts = VideoFacts(demuxer, streamIndex: streamIndex)
        // A file cut short after its index would otherwise decode "successfully" with fewer frames.
        try demuxer.checkIndexFitsInFile()
        // Audio and other packets are never needed; where the container allows it, they are not even read.
        demuxer.discardAllStreams(except: streamIndex)
        decoder = try StreamDecoder(demuxer, streamIndex: streamIndex, threads: options.threads)
        packet = try Packet()
        frame = try Frame()
        let stream = demuxer.stream(streamIndex).pointee
        timeBase = av_q2d(stream.time_base)
        startTimestamp = stream.start_time == FFmpegStatus.noPTS ? 0 : stream.start_time
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
        guard !used else { throw MediaError(kind: .internal, message: "decodeAll was already called on this decoder") }
        used = true
        var run = DecodeRun(schedule: SampleSchedule(interval: options.qualitySampleInterval))

        while try demuxer.read(into: packet) {
            guard packet.streamIndex == streamIndex else { continue }
            try decode(packet, &run, progress)
        }
        packet.unref()
        try decode(nil, &run, progress) // drain the frames the decoder still holds (reordering, threads)

        guard run.framesDecoded > 0 else {
            let reason = run.lastError.map(FFmpegStatus.message(for:)) ?? "the video stream has no packets"
            throw MediaError.invalidInput("no frame could be decoded: \(reason)")
        }
        try progress(run.framesDecoded)
        return DecodeReport(framesDecoded: run.framesDecoded, qualitySamples: run.samples,
                            damagedPackets: run.damagedPackets)
    }

    /// The state of one decodeAll call.
    private struct DecodeRun {
        var schedule: SampleSchedule
        var framesDecoded = 0
        var samples: [FrameQualitySample] = []
        var damagedPackets = 0
        var lastError: Int32?

        mutating func damaged(_ status: Int32) {
            damagedPackets += 1
            lastError = status
        }
    }

    /// Sends `packet` (nil = end of stream) and receives every frame it makes available.
    private func decode(_ packet: Packet?, _ run: inout DecodeRun, _ progress: (Int) throws -> Void) throws {
        let draining = packet == nil
        while true {
            switch decoder.send(packet) {
            case .accepted:
                try receiveFrames(&run, untilFinished: draining, progress)
                return
            case .full:
                // The decoder wants its output taken first; then the same packet goes again.
                let before = run.framesDecoded
                try receiveFrames(&run, untilFinished: false, progress)
                // "Full" yet nothing to take would loop forever; drop the packet instead.
                if run.framesDecoded == before {
                    run.damaged(FFmpegStatus.tryAgain)
                    return
                }
            case .rejected(let status):
                run.damaged(status) // skip it; the next packets usually decode fine
                return
            }
        }
    }

    private func receiveFrames(_ run: inout DecodeRun, untilFinished: Bool, _ progress: (Int) throws -> Void) throws {
        while true {
            switch decoder.receive(into: frame) {
            case .frame:
                run.framesDecoded += 1
                sampleIfDue(&run)
                if run.framesDecoded % 30 == 0 { try progress(run.framesDecoded) }
            case .needsInput, .finished:
                return
            case .failed(let status):
                run.damaged(status)
                // While draining there is no more input to send, so keep receiving the rest.
                if !untilFinished { return }
            }
        }
    }

    private func sampleIfDue(_ run: inout DecodeRun) {
        let time: Double
        if let timestamp = frame.timestamp {
            time = max(0, Double(timestamp - startTimestamp) * timeBase)
        } else {
            time = facts.fps > 0 ? Double(run.framesDecoded - 1) / facts.fps : 0
        }
        guard run.schedule.isDue(at: time), let stats = luma.measure(frame) else { return }
        run.samples.append(FrameQualitySample(time: time, meanLuminance: stats.mean, variance: stats.variance))
    }
}
