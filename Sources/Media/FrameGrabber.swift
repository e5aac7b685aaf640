import CFFmpeg
import ReelworkCore

/// One frame of a video as a still picture: the result pages draw a shot's path over it and show
/// a swing's keyframes as thumbnails.
public struct StillFrame: Sendable {
    /// Size of the still as displayed (rotation applied, scaled to fit the width asked for).
    public let width: Int
    public let height: Int
    /// Presentation time of the frame shown, in seconds from the stream's start.
    public let time: Double
    public let png: [UInt8]
}

/// One frame of a video as packed RGB24 pixels in display orientation, for drawing on: the result
/// pictures paint it and draw the analysis over it.
public struct FramePixels: Sendable {
    public let width: Int
    public let height: Int
    /// Presentation time of the frame, in seconds from the stream's start.
    public let time: Double
    /// `width` × `height` × 3 bytes, rows top to bottom.
    public let rgb: [UInt8]

    public init(width: Int, height: Int, time: Double, rgb: [UInt8]) {
        precondition(width > 0 && height > 0 && rgb.count == width * height * 3, "need \(width)×\(height)×3 bytes, got \(rgb.count)")
        (self.width, self.height, self.time, self.rgb) = (width, height, time, rgb)
    }
}

/// Finds the frame shown at a given time (seek to the key frame before it, decode forward) and
/// turns it into a PNG still or RGB pixels. Owns its demuxer, decoder and buffers; one thread at a time.
public final class FrameGrabber {
    public let facts: VideoFacts
    private let demuxer: Demuxer
    private let streamIndex: Int32
    private let decoder: StreamDecoder
    private let packet: Packet
    private let frame: Frame
    /// The latest frame before the time asked for: shown when the stream ends before that time.
    private let previous: Frame
    private let rgb = RGBConverter(flags: SWS_AREA)
    private let timeBase: Double
    private let startTimestamp: Int64
    /// Whether anything was read yet: a fresh grabber is at the start and needs no seek (the image2
    /// demuxer of a `.jpg` or `.png` photo reads nothing after a seek to its only frame).
    private var hasRead = false

    /// Opens `location` like `VideoDecoder` does (same guards, same errors).
    public init(location: String, guards: MediaGuards = MediaGuards()) throws {
        demuxer = try Demuxer(location: MediaLocation(location), guards: guards)
        streamIndex = try demuxer.bestVideoStreamIndex()
        facts = PhotoOrientation.apply(to: VideoFacts(demuxer, streamIndex: streamIndex), location: location, guards: guards)
        demuxer.discardAllStreams(except: streamIndex)
        decoder = try StreamDecoder(demuxer, streamIndex: streamIndex, threads: 1, guards: guards)
        packet = try Packet()
        frame = try Frame()
        previous = try Frame()
        let stream = demuxer.stream(streamIndex).pointee
        timeBase = av_q2d(stream.time_base)
        startTimestamp = stream.start_time == FFmpegStatus.noPTS ? 0 : stream.start_time
    }

    /// The frame shown at `seconds` (the first at or after it, within half a frame; the last one
    /// when the video ends sooner) as a PNG at most `maxWidth` pixels wide, in display orientation.
    /// Throws `.invalidInput` when no frame decodes at all.
    public func still(atSeconds seconds: Double, maxWidth: Int) throws -> StillFrame {
        let pixels = try self.pixels(atSeconds: seconds, maxWidth: maxWidth)
        let png = try PNGEncoder.encode(pixels.rgb, width: pixels.width, height: pixels.height)
        return StillFrame(width: pixels.width, height: pixels.height, time: pixels.time, png: png)
    }

    /// The same frame as `still` picks, as RGB pixels to draw on.
    public func pixels(atSeconds seconds: Double, maxWidth: Int) throws -> FramePixels {
        let target = seconds.isFinite ? max(0, seconds) : 0
        if timeBase > 0, hasRead || target > 0 {
            let timestamp = Double(startTimestamp) + target / timeBase
            if timestamp < Double(Int64.max / 2), demuxer.seek(stream: streamIndex, toKeyFrameBefore: Int64(timestamp)) {
                decoder.flush()
            }
        }
        let tolerance = facts.fps > 0 ? 0.5 / facts.fps : 0.001
        av_frame_unref(previous.pointer)
        var previousTime: Double?
        var more = true
        hasRead = true
        while more {
            more = try demuxer.read(into: packet)
            if more, packet.streamIndex != streamIndex { continue }
            // A full decoder gets its frames taken and the packet once more; a damaged packet is skipped.
            for _ in 0..<2 {
                let sent = decoder.send(more ? packet : nil)
                while case .frame = decoder.receive(into: frame) {
                    let time = presentationTime(frame)
                    if time + tolerance >= target { return try picture(frame, time: time, maxWidth: maxWidth) }
                    av_frame_unref(previous.pointer)
                    av_frame_move_ref(previous.pointer, frame.pointer)
                    previousTime = time
                }
                if case .full = sent { continue }
                break
            }
        }
        guard let previousTime else { throw MediaError.invalidInput("no frame could be decoded near \(target) s") }
        return try picture(previous, time: previousTime, maxWidth: maxWidth)
    }

    private func presentationTime(_ frame: Frame) -> Double {
        guard let timestamp = frame.timestamp else { return 0 }
        return max(0, (Double(timestamp) - Double(startTimestamp)) * timeBase)
    }

    private func picture(_ frame: Frame, time: Double, maxWidth: Int) throws -> FramePixels {
        let codedWidth = Int(frame.pointer.pointee.width), codedHeight = Int(frame.pointer.pointee.height)
        let turned = facts.rotation == 90 || facts.rotation == 270
        let displayWidth = turned ? codedHeight : codedWidth
        let scale = min(1, Double(max(1, maxWidth)) / Double(max(1, displayWidth)))
        let size = (width: max(1, Int((Double(codedWidth) * scale).rounded())), height: max(1, Int((Double(codedHeight) * scale).rounded())))
        let image = try rgb.convert(frame, rotation: facts.rotation, codedSize: size)
        return FramePixels(width: image.width, height: image.height, time: time, rgb: image.packedPixels())
    }
}
