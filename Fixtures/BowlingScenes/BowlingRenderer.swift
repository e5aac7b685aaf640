import Foundation
import SceneVideo
import SportMath

/// Renders a `BowlingScene` to rgb24 frames (deterministic: the same scene gives the same bytes) and
/// to an H.264 clip, and gives the ground truth of every shot in it.
///
///     let truths = try BowlingRenderer.render(scene, to: url)
///     let options = BowlingClipOptions(scene: scene).jsonString()
public final class BowlingRenderer {
    public let scene: BowlingScene
    public let paths: [BallPath]
    public let releaseTimes: [Double]
    public let frameCount: Int
    /// Each shot's ground truth, sampled at this clip's frame times.
    public let truths: [ShotTruth]
    /// One backdrop, or a few noisy variants of it (noise is baked in once, not drawn per frame).
    private let backdrops: [[UInt8]]
    private let ballColor: RGBColor
    private let markerColor: RGBColor

    static let noisyBackdropVariants = 4

    public init(scene: BowlingScene) throws {
        try scene.validate()
        self.scene = scene
        paths = scene.paths
        releaseTimes = scene.releaseTimes
        frameCount = scene.frameCount
        ballColor = scene.ballColor.rgb
        markerColor = scene.markerColor.rgb
        truths = Self.measure(scene: scene, paths: paths, releaseTimes: releaseTimes, frameCount: frameCount)
        let clean = LaneBackdrop.draw(camera: scene.camera)
        if let noise = scene.noise {
            backdrops = (0..<Self.noisyBackdropVariants).map { variant in
                var canvas = clean
                var random = SeededRandom(seed: noise.seed, stream: -1 - variant)
                canvas.addNoise(&random, amplitude: noise.amplitude)
                return canvas.pixels
            }
        } else {
            backdrops = [clean.pixels]
        }
    }

    public var width: Int { scene.camera.width }
    public var height: Int { scene.camera.height }
    public var frameByteCount: Int { width * height * 3 }

    /// The balls on screen in frame `index` (at most one unless shots overlap).
    public func balls(inFrame index: Int) -> [BallAppearance] {
        Self.balls(inFrame: index, scene: scene, paths: paths, releaseTimes: releaseTimes)
    }

    private static func balls(inFrame index: Int, scene: BowlingScene, paths: [BallPath],
                              releaseTimes: [Double]) -> [BallAppearance] {
        let time = scene.time(ofFrame: index)
        return paths.indices.compactMap { shot in
            BallAppearance.of(path: paths[shot], shotIndex: shot, releaseTime: releaseTimes[shot],
                              frameIndex: index, time: time, camera: scene.camera)
        }
    }

    private static func measure(scene: BowlingScene, paths: [BallPath], releaseTimes: [Double],
                                frameCount: Int) -> [ShotTruth] {
        var samples = [[BallAppearance]](repeating: [], count: paths.count)
        for index in 0..<frameCount {
            for ball in balls(inFrame: index, scene: scene, paths: paths, releaseTimes: releaseTimes) {
                samples[ball.shotIndex].append(ball)
            }
        }
        return paths.indices.map { shot in
            ShotTruth.measure(path: paths[shot], hand: scene.hand, releaseTime: releaseTimes[shot],
                              samples: samples[shot])
        }
    }

    public var lanePoints: LanePoints { LanePoints(camera: scene.camera) }

    /// Frame `index` as rgb24 bytes, rows top to bottom.
    public func frame(at index: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: frameByteCount)
        pixels.withUnsafeMutableBufferPointer { draw(frame: index, into: $0) }
        return pixels
    }

    /// Every frame in order through one reused buffer (valid only during the call).
    public func renderFrames(_ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        var pixels = [UInt8](repeating: 0, count: frameByteCount)
        try pixels.withUnsafeMutableBufferPointer { buffer in
            for index in 0..<frameCount {
                draw(frame: index, into: buffer)
                try body(index, UnsafeBufferPointer(buffer))
            }
        }
    }

    /// Renders and encodes the clip to `url` (H.264 mp4, yuv420p) and returns each shot's truth.
    public func encode(to url: URL) throws -> [ShotTruth] {
        let encoder = try RawVideoEncoder(output: url, width: width, height: height,
                                          framesPerSecond: scene.framesPerSecond)
        try renderFrames { _, frame in try encoder.write(frame) }
        try encoder.finish()
        return truths
    }

    public static func render(_ scene: BowlingScene, to url: URL) throws -> [ShotTruth] {
        try BowlingRenderer(scene: scene).encode(to: url)
    }

    private func draw(frame index: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        var random = SeededRandom(seed: scene.noise?.seed ?? 0, stream: index)
        let backdrop = backdrops[backdrops.count == 1 ? 0 : Int(random.next() % UInt64(backdrops.count))]
        backdrop.withUnsafeBufferPointer { source in
            buffer.baseAddress!.update(from: source.baseAddress!, count: source.count)
        }
        let amplitude = scene.noise?.amplitude ?? 0
        for ball in balls(inFrame: index) {
            RGBCanvas.fillDisc(in: buffer, width: width, height: height, centre: ball.centre, radius: ball.radiusPx,
                               color: ballColor, noise: &random, noiseAmplitude: amplitude)
            RGBCanvas.fillDisc(in: buffer, width: width, height: height, centre: ball.markerCentre,
                               radius: ball.markerRadiusPx, color: markerColor, noise: &random,
                               noiseAmplitude: amplitude)
        }
    }
}
