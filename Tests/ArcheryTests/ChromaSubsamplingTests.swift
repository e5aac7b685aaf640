import Archery
import ArcheryScenes
import ReelworkCore
import XCTest

/// Phones store photos as 4:2:0 JPEG and video as 4:2:0 H.264: the colour (Cb, Cr) at half the
/// resolution each way, the brightness (Y) at full. At a ring boundary the colour is smeared over
/// about two pixels while the brightness stays sharp, which once made the finder report "arrows"
/// all along the rings.
final class ChromaSubsamplingTests: XCTestCase {
    func testFourTwoZeroPhotosScoreExactly() throws {
        for (width, height, radius, yaw) in [(1600, 1200, 480.0, 0.0), (1600, 1200, 480.0, 30.0), (800, 600, 240.0, 0.0), (800, 600, 240.0, 30.0)] {
            let photo = Scenes.photo(yaw: yaw, width: width, height: height, radiusPx: radius)
            let image = try ArcheryImage(width: width, height: height, pixels: Scenes.chroma420(photo.pixels, width: width, height: height))
            let end = try ArcheryAnalyzer.analyze(image, options: ArcheryOptions())
            print("4:2:0 \(width)×\(height) yaw \(yaw): arrows \(end.arrows.count), total \(end.total)")
            Scenes.assertScored(end, photo.truth)
        }
    }
}

extension Scenes {
    /// A round trip through 4:2:0 (BT.601 full range, as JPEG): each 2 × 2 block's Cb and Cr
    /// averaged, then given back to all four of its pixels.
    static func chroma420(_ rgb: [UInt8], width: Int, height: Int) -> [UInt8] {
        var y = [Double](repeating: 0, count: width * height), cb = y, cr = y
        for i in 0..<(width * height) {
            let r = Double(rgb[i * 3]), g = Double(rgb[i * 3 + 1]), b = Double(rgb[i * 3 + 2])
            y[i] = 0.299 * r + 0.587 * g + 0.114 * b
            cb[i] = -0.168736 * r - 0.331264 * g + 0.5 * b
            cr[i] = 0.5 * r - 0.418688 * g - 0.081312 * b
        }
        var out = [UInt8](repeating: 0, count: rgb.count)
        for by in stride(from: 0, to: height, by: 2) {
            for bx in stride(from: 0, to: width, by: 2) {
                var sb = 0.0, sr = 0.0, n = 0.0
                for j in by..<min(by + 2, height) { for i in bx..<min(bx + 2, width) { sb += cb[j * width + i]; sr += cr[j * width + i]; n += 1 } }
                let mb = sb / n, mr = sr / n
                for j in by..<min(by + 2, height) {
                    for i in bx..<min(bx + 2, width) {
                        let k = j * width + i
                        let clamp = { (v: Double) -> UInt8 in UInt8(max(0, min(255, v.rounded()))) }
                        out[k * 3] = clamp(y[k] + 1.402 * mr)
                        out[k * 3 + 1] = clamp(y[k] - 0.344136 * mb - 0.714136 * mr)
                        out[k * 3 + 2] = clamp(y[k] + 1.772 * mb)
                    }
                }
            }
        }
        return out
    }
}

/// The same through ffmpeg's own encoders (a 4:2:0 JPEG, and H.264 as phones record video), decoded
/// back to RGB: quantisation and the decoders' interpolation of the colour on top of the subsampling.
final class FFmpegChromaSubsamplingTests: XCTestCase {
    func testFourTwoZeroJPEGAndH264ScoreExactly() throws {
        guard FFmpegRoundTrip.available else { throw XCTSkip("ffmpeg is not installed") }
        for (width, height, radius, yaw) in [(1600, 1200, 480.0, 0.0), (1600, 1200, 480.0, 30.0), (800, 600, 240.0, 0.0), (800, 600, 240.0, 30.0)] {
            let photo = Scenes.photo(yaw: yaw, width: width, height: height, radiusPx: radius)
            for codec in ["mjpeg", "libx264"] {
                let pixels = try FFmpegRoundTrip.roundTrip(photo.pixels, width: width, height: height, codec: codec)
                let end = try ArcheryAnalyzer.analyze(try ArcheryImage(width: width, height: height, pixels: pixels), options: ArcheryOptions())
                print("\(codec) 4:2:0 \(width)×\(height) yaw \(yaw): arrows \(end.arrows.count), total \(end.total)")
                Scenes.assertScored(end, photo.truth)
            }
        }
    }
}

enum FFmpegRoundTrip {
    static var available: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/ffmpeg") }
    }

    /// rgb24 in, one frame encoded yuv420p by `codec` (mjpeg: a JPEG; libx264: H.264), decoded back to rgb24.
    static func roundTrip(_ rgb: [UInt8], width: Int, height: Int, codec: String) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("archery-420-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let raw = directory.appendingPathComponent("in.rgb"), encoded = directory.appendingPathComponent(codec == "mjpeg" ? "out.jpg" : "out.mp4")
        let decoded = directory.appendingPathComponent("out.rgb")
        try Data(rgb).write(to: raw)
        let quality = codec == "mjpeg" ? ["-q:v", "3"] : ["-crf", "20", "-preset", "veryfast"]
        try run(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(width)x\(height)", "-i", raw.path, "-frames:v", "1", "-c:v", codec, "-pix_fmt", codec == "mjpeg" ? "yuvj420p" : "yuv420p"]
                + quality + [encoded.path])
        try run(["-i", encoded.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", decoded.path])
        return [UInt8](try Data(contentsOf: decoded))
    }

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-nostdin", "-v", "error", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ReelworkError.invalidInput("ffmpeg failed: \(arguments.joined(separator: " "))") }
    }
}
