import Foundation
import ReelworkCore

/// Reads what a video is (size, length, frame rate, codec) without decoding it.
public enum MediaProbe {
    /// Opens `location` and closes it again, reading no video: whether its server answers and
    /// accepts `guards.httpAuthorization` (a worker waiting for the coordinator asks this before
    /// it claims more work). Throws the MediaError opening the video would have thrown.
    public static func checkOpens(_ location: String, guards: MediaGuards = MediaGuards()) throws {
        let place = MediaLocation(location)
        if case .failure(let failure) = place.withBytes(guards: guards, { _ in () }) {
            throw MediaError.ffmpeg(failure.code, "cannot open \(place.shown)", at: place)
        }
    }

    /// Opens `location` (a file path or an http(s) URL that libavformat reads), reads the
    /// stream info of the best video stream and returns its facts.
    ///
    /// - frameCount: the stream's declared nb_frames, else round(duration × fps) with
    ///   `frameCountSource` `.estimate`.
    /// - durationSeconds: the container's duration, else the stream's.
    /// - fps: avg_frame_rate, else r_frame_rate.
    /// - rotation: clockwise degrees (0, 90, 180, 270) a player turns the picture, from the
    ///   display matrix (a still JPEG's from its EXIF orientation, `PhotoOrientation`).
    ///
    /// An index that points past the end of the file is always reported as truncated (that
    /// check costs no I/O). With `verifyPackets`, every packet is also demuxed (not decoded)
    /// to prove the file is complete; any read error before the end, or fewer video packets
    /// than declared, throws `.invalidInput` "truncated video: …".
    ///
    /// `guards` bound the pictures the probing decoders accept and let another thread stop a
    /// blocked read. The facts are not checked against any limit here (`InputLimits.check`).
    ///
    /// Throws MediaError: `.invalidInput` for problems with the file, `.transient` for
    /// network failures on an http(s) location.
    public static func probe(_ location: String, verifyPackets: Bool = false, guards: MediaGuards = MediaGuards()) throws -> VideoFacts {
        let demuxer = try Demuxer(location: MediaLocation(location), guards: guards)
        let index = try demuxer.bestVideoStreamIndex()
        let facts = PhotoOrientation.apply(to: VideoFacts(demuxer, streamIndex: index), location: location, guards: guards)
        try demuxer.checkIndexFitsInFile()
        if verifyPackets { try PacketVerifier.verify(demuxer, videoStream: index) }
        return facts
    }

    /// When the clip at `location` was filmed, from its container's metadata (`RecordingDate`);
    /// nil when the container does not say. Throws what opening the video throws.
    public static func recordingDate(_ location: String, guards: MediaGuards = MediaGuards()) throws -> Date? {
        let demuxer = try Demuxer(location: MediaLocation(location), guards: guards)
        return RecordingDate.find(demuxer.metadata)
    }
}
