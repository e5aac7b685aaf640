import Foundation
import SceneVideo

extension ShootingSceneRenderer {
    /// Renders every frame of the scene and encodes them to `url` (H.264 mp4, yuv420p, through
    /// ffmpeg), as a real upload would reach the tracker.
    public func encode(to url: URL) throws {
        let encoder = try RawVideoEncoder(output: url, width: scene.view.width, height: scene.view.height, framesPerSecond: scene.fps)
        var pixels: [UInt8] = []
        for index in 0..<scene.frameCount {
            render(frame: index, into: &pixels)
            try pixels.withUnsafeBufferPointer { try encoder.write($0) }
        }
        try encoder.finish()
    }
}
