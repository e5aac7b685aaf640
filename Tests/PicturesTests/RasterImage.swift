import Foundation
import TestSupport
import XCTest

/// A PNG (or one frame of a video) read back by the ffmpeg CLI as packed RGB: an independent
/// reader of what the pictures wrote, and the reference frames they are compared with.
struct RasterImage {
    let width: Int
    let height: Int
    let rgb: [UInt8]

    /// Reads `path` (a PNG or a video, at `seconds` when given), scaled to `size` when given.
    init(_ path: String, at seconds: Double? = nil, size: (Int, Int)? = nil) throws {
        var input = ["-v", "error"]
        if let seconds { input += ["-ss", String(seconds)] }
        input += ["-i", path, "-frames:v", "1"]
        if let size { input += ["-vf", "scale=\(size.0):\(size.1):flags=area"] }
        let probe = try Tool.ffprobe(["-select_streams", "v:0", "-show_entries", "stream=width,height", path])
        let stream = try XCTUnwrap((probe["streams"] as? [[String: Any]])?.first)
        let probed = (width: try XCTUnwrap(stream["width"] as? Int), height: try XCTUnwrap(stream["height"] as? Int))
        width = size?.0 ?? probed.width
        height = size?.1 ?? probed.height
        rgb = [UInt8](try Tool.run("ffmpeg", input + ["-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        XCTAssertEqual(rgb.count, width * height * 3, "ffmpeg read \(path) as \(width)×\(height)")
    }

    init(png: [UInt8], in directory: ScratchDirectory, name: String) throws {
        let path = directory.path(name)
        try Data(png).write(to: URL(fileURLWithPath: path))
        try self.init(path)
    }

    func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = (y * width + x) * 3
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }

    /// Mean absolute difference per channel between this image's `region` (at `offset` here) and
    /// the same-sized `other`, over the pixels `keep` accepts (coordinates in `other`).
    func difference(from other: RasterImage, offset: (x: Int, y: Int) = (0, 0), keep: (Int, Int) -> Bool = { _, _ in true }) -> Double {
        var total = 0, count = 0
        for y in 0..<other.height {
            for x in 0..<other.width where keep(x, y) {
                let a = pixel(x + offset.x, y + offset.y), b = other.pixel(x, y)
                total += abs(a.0 - b.0) + abs(a.1 - b.1) + abs(a.2 - b.2)
                count += 3
            }
        }
        return Double(total) / Double(max(1, count))
    }
}
