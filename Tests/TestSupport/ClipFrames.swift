import Foundation

extension Tool {
    /// Frame `index` (0-based, decode order) of the video at `path` as rgb24 bytes, decoded by the
    /// ffmpeg CLI: the reference to compare a rendered frame or an analysis's decoder with.
    public static func decodedFrame(path: String, index: Int) throws -> [UInt8] {
        [UInt8](try run("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-i", path,
                                   "-vf", "select=eq(n\\,\(index))", "-vsync", "0", "-frames:v", "1",
                                   "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
    }
}
