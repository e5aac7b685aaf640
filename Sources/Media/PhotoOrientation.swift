import CFFmpeg
import ReelworkCore

/// How a JPEG photo is turned for display (its EXIF Orientation, as phones store portrait shots).
///
/// Containers give a video's rotation on the stream (`VideoFacts.rotation`); FFmpeg's JPEG decoder
/// gives a photo's only on the decoded picture (a display matrix on the frame), so a still JPEG's
/// first picture is decoded once more, with the same guards, to read it: at an eighth of its size
/// (FFmpeg's lowres), since only the EXIF it carries is wanted. A mirrored orientation (EXIF
/// 2, 4, 5, 7: rare from cameras) counts by its rotation alone.
enum PhotoOrientation {
    /// The containers FFmpeg opens a single JPEG with (a file with its extension, or a pipe).
    static let photoContainers: Set<String> = ["image2", "jpeg_pipe"]

    /// Whether `facts` describe a still JPEG whose turn only its decoded picture can tell.
    static func applies(to facts: VideoFacts) -> Bool {
        facts.rotation == 0 && facts.codec == "mjpeg" && photoContainers.contains(facts.container)
    }

    /// `facts` with the photo's rotation, when it is a still JPEG that has one; unchanged otherwise
    /// (and when its first picture cannot be decoded: the decode that follows says why).
    static func apply(to facts: VideoFacts, location: String, guards: MediaGuards) -> VideoFacts {
        guard applies(to: facts), let turn = try? clockwiseRotation(location: location, guards: guards), turn != 0 else { return facts }
        var turned = facts
        turned.rotation = turn
        return turned
    }

    /// The first decoded picture's display matrix, as clockwise degrees (0, 90, 180, 270).
    private static func clockwiseRotation(location: String, guards: MediaGuards) throws -> Int {
        let demuxer = try Demuxer(location: MediaLocation(location), guards: guards)
        let index = try demuxer.bestVideoStreamIndex()
        demuxer.discardAllStreams(except: index)
        let decoder = try StreamDecoder(demuxer, streamIndex: index, threads: 1, guards: guards, reducedScale: 3)
        let packet = try Packet()
        let frame = try Frame()
        var draining = false
        while true {
            switch decoder.receive(into: frame) {
            case .frame: return frame.clockwiseRotation
            case .finished, .failed: return 0
            case .needsInput:
                guard !draining else { return 0 }
                if try demuxer.read(into: packet) {
                    guard packet.pointer.pointee.stream_index == index else { continue }
                    if case .rejected = decoder.send(packet) { return 0 }
                } else {
                    draining = true
                    _ = decoder.send(nil)
                }
            }
        }
    }
}
