import BowlingScenes
import Foundation
import TestSupport
import XCTest

/// The test clip renderer (TestSupport/BowlingRenderer) against independent arithmetic, ffprobe and
/// decoded pixels, so the bowling analysis can trust its ground truth.
final class RendererTests: XCTestCase {
    private static let wood = RGBColor(214, 178, 128)
    private static let gutter = RGBColor(72, 72, 74)

    // MARK: Determinism

    func testSameSceneRendersIdenticalFrames() throws {
        let scene = BowlingScene(noise: .init(seed: 7, amplitude: 6))
        let first = try BowlingRenderer(scene: scene), second = try BowlingRenderer(scene: scene)
        let middle = first.truths[0].samples[first.truths[0].samples.count / 2].frameIndex
        for index in [0, middle, middle + 1, first.frameCount - 1] {
            XCTAssertEqual(fingerprint(first.frame(at: index)), fingerprint(second.frame(at: index)), "frame \(index)")
        }
        // The streaming path draws the same bytes as random access.
        var streamed: UInt64?
        first.renderFrames { index, frame in
            if index == middle { streamed = fingerprint(Array(frame)) }
        }
        XCTAssertEqual(streamed, fingerprint(first.frame(at: middle)))
        // …and the noise really depends on the seed (otherwise the checks above prove little).
        let reseeded = try BowlingRenderer(scene: BowlingScene(noise: .init(seed: 8, amplitude: 6)))
        XCTAssertNotEqual(fingerprint(reseeded.frame(at: middle)), fingerprint(first.frame(at: middle)))
    }

    // MARK: Geometry

    func testCameraProjectsLaneCornersToLanePoints() throws {
        // Independent pinhole arithmetic for the straight-behind preset (yaw 0).
        let camera = LaneCamera.behindBowler720p
        let pitch = camera.pitchDegrees * .pi / 180
        func expected(x: Double, z: Double) -> (Double, Double) {
            let dx = x - camera.position.x, dy = -camera.position.y, dz = z - camera.position.z
            let depth = dz * cos(pitch) - dy * sin(pitch)
            return (639.5 - camera.focalPx * dx / depth,
                    359.5 - camera.focalPx * (dy * cos(pitch) + dz * sin(pitch)) / depth)
        }
        let points = LanePoints(camera: camera)
        let width = 41.5 / 12
        for (point, x, z) in [(points.foulLineLeft, width, 0.0), (points.foulLineRight, 0, 0),
                              (points.farLeft, width, 60), (points.farRight, 0, 60)] {
            let (u, v) = expected(x: x, z: z)
            XCTAssertEqual(point.x, u, accuracy: 1e-9)
            XCTAssertEqual(point.y, v, accuracy: 1e-9)
        }
        XCTAssertEqual(points.farDistanceFt, 60)

        for camera in [LaneCamera.behindBowler720p, .sideAngle720p, .behindBowler1080p, .behindBowlerPhone720p, .behindBowlerWidePhone720p] {
            let points = LanePoints(camera: camera)
            // Left edge (board 39.5) on the image's left; far points above near ones.
            XCTAssertLessThan(points.foulLineLeft.x, points.foulLineRight.x)
            XCTAssertLessThan(points.farLeft.x, points.farRight.x)
            XCTAssertLessThan(points.farLeft.y, points.foulLineLeft.y - 100)
            let near = try XCTUnwrap(camera.project(.onLane(board: 20, distanceFt: 5)))
            let far = try XCTUnwrap(camera.project(.onLane(board: 20, distanceFt: 50)))
            XCTAssertLessThan(far.y, near.y)
            // The lane centre at 30 ft lies between the two edges at the same distance.
            let centre = try XCTUnwrap(camera.project(.onLane(board: 20, distanceFt: 30)))
            let left = try XCTUnwrap(camera.project(.onLane(board: 39.5, distanceFt: 30)))
            let right = try XCTUnwrap(camera.project(.onLane(board: 0.5, distanceFt: 30)))
            XCTAssertGreaterThan(centre.x, left.x)
            XCTAssertLessThan(centre.x, right.x)
            XCTAssertLessThan(centre.y, points.foulLineLeft.y)
            XCTAssertGreaterThan(centre.y, points.farLeft.y)
            // The whole lane, foul line to pins, and the ball at the foul line are in the frame.
            for corner in [points.foulLineLeft, points.foulLineRight, points.farLeft, points.farRight] {
                XCTAssertTrue(camera.contains(corner, margin: 20), "\(corner) outside \(camera.width)x\(camera.height)")
            }
            let ballAtFoulLine = LaneCoordinate.onLane(board: 20, distanceFt: 0, height: 4.25 / 12)
            let ballCentre = try XCTUnwrap(camera.project(ballAtFoulLine))
            XCTAssertTrue(camera.contains(ballCentre, margin: camera.projectedRadius(ofSphereAt: ballAtFoulLine, radiusFt: 4.25 / 12)))
        }
    }

    func testDrawnLaneAgreesWithLanePoints() throws {
        for camera in [LaneCamera.behindBowler720p, .sideAngle720p] {
            let renderer = try BowlingRenderer(scene: BowlingScene(camera: camera))
            let empty = renderer.frame(at: 0)
            let points = renderer.lanePoints
            // Just inside the lane edges, 2 ft past the foul line: wood. Just outside: gutter.
            for board in [1.5, 38.5] {
                let inside = try XCTUnwrap(camera.project(.onLane(board: board, distanceFt: 2)))
                XCTAssertEqual(pixel(empty, inside, width: camera.width), Self.wood)
            }
            for board in [-1.5, 41.5] {
                let outside = try XCTUnwrap(camera.project(.onLane(board: board, distanceFt: 2)))
                XCTAssertEqual(pixel(empty, outside, width: camera.width), Self.gutter)
            }
            // Halfway between the clicked foul line corners, a few pixels up: lane wood.
            let middle = ImagePoint(x: (points.foulLineLeft.x + points.foulLineRight.x) / 2,
                                    y: (points.foulLineLeft.y + points.foulLineRight.y) / 2 - 4)
            XCTAssertEqual(pixel(empty, middle, width: camera.width), Self.wood)
        }
    }

    func testBallDiscAndMarkerAreDrawnWhereTheTruthSays() throws {
        let renderer = try BowlingRenderer(scene: BowlingScene())
        let truth = try XCTUnwrap(renderer.truths.first)
        let ball = truth.samples[truth.samples.count / 3]
        let frame = renderer.frame(at: ball.frameIndex)
        let width = renderer.width
        XCTAssertEqual(pixel(frame, ball.centre, width: width), SceneColor.deepBlue.rgb)
        XCTAssertEqual(pixel(frame, ball.markerCentre, width: width), SceneColor.yellow.rgb)
        // The disc's width along the row through its centre is 2 × focal × R / depth.
        let row = Double(ball.centre.y.rounded())
        let covered = (0..<width).filter { column in
            pixel(frame, ImagePoint(x: Double(column), y: row), width: width) == SceneColor.deepBlue.rgb
        }.count
        XCTAssertEqual(Double(covered), 2 * ball.radiusPx, accuracy: 2)
        let camera = LaneCamera.behindBowler720p
        let centre3D = LaneCoordinate.onLane(board: ball.board, distanceFt: ball.distanceFt, height: 4.25 / 12)
        XCTAssertEqual(ball.radiusPx, camera.focalPx * (4.25 / 12) / camera.depth(of: centre3D), accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(camera.project(centre3D)), ball.centre)
        let contact = try XCTUnwrap(camera.project(.onLane(board: ball.board, distanceFt: ball.distanceFt)))
        XCTAssertEqual(ball.contactPoint.x, contact.x, accuracy: 1e-9)
        XCTAssertEqual(ball.contactPoint.y, contact.y, accuracy: 1e-9)
        // The touching point is near the disc's bottom edge, not its centre.
        XCTAssertEqual(ball.contactPoint.y, ball.centre.y + ball.radiusPx, accuracy: 0.05 * ball.radiusPx)
        // The marker turns 2π·rpm/60 per second.
        let next = truth.samples[truth.samples.count / 3 + 1]
        XCTAssertEqual((next.markerAngle - ball.markerAngle) * 30 * 60 / (2 * .pi), 300, accuracy: 1e-6)
    }

    // MARK: The encoded clip

    func testEncodedClipHasSizeFramesRateAndBallColour() throws {
        let directory = try temporaryDirectory()
        for (scene, name) in [(BowlingScene(), "blue-behind"),
                              (BowlingScene(camera: .sideAngle720p, hand: .left, ballColor: .red,
                                            noise: .init(seed: 3, amplitude: 3)), "red-side-left")] {
            let url = directory.appendingPathComponent("\(name).mp4")
            var started = Date()
            let renderer = try BowlingRenderer(scene: scene)
            var drawn = 0
            renderer.renderFrames { _, _ in drawn += 1 }
            let renderSeconds = Date().timeIntervalSince(started)
            started = Date()
            let truths = try renderer.encode(to: url)
            let seconds = Date().timeIntervalSince(started)
            XCTAssertEqual(drawn, renderer.frameCount)
            print("RendererTests: \(name): \(renderer.frameCount) frames (\(String(format: "%.2f", scene.durationSeconds)) s) "
                  + "1280x720: rendering alone \(String(format: "%.2f", renderSeconds)) s, "
                  + "rendering + encoding \(String(format: "%.2f", seconds)) s")

            let reference = try Tool.reference(url.path)
            XCTAssertEqual(reference.width, 1280)
            XCTAssertEqual(reference.height, 720)
            XCTAssertEqual(reference.codec, "h264")
            XCTAssertEqual(reference.decodedFrames, renderer.frameCount)
            XCTAssertEqual(reference.avgFrameRate, 30, accuracy: 1e-6)

            let ball = try XCTUnwrap(truths.first?.samples.first { $0.distanceFt > 25 })
            let frame = try Tool.decodedFrame(path: url.path, index: ball.frameIndex)
            XCTAssertEqual(frame.count, 1280 * 720 * 3)
            let seen = SceneColor(pixel(frame, ball.centre, width: 1280))
            XCTAssertLessThan(seen.hueDistance(to: scene.ballColor), 10, "\(name): \(seen)")
            XCTAssertEqual(seen.s, scene.ballColor.s, accuracy: 12, name)
            XCTAssertEqual(seen.v, scene.ballColor.v, accuracy: 12, name)
            // Lane wood well away from the ball (the other half of the lane, 10 ft nearer).
            let awayBoard = ball.board < 20 ? 32.0 : 8.0
            let away = try XCTUnwrap(scene.camera.project(.onLane(board: awayBoard, distanceFt: ball.distanceFt - 10)))
            let lane = SceneColor(pixel(frame, away, width: 1280))
            XCTAssertLessThan(lane.hueDistance(to: SceneColor(Self.wood)), 8, "\(name): \(lane)")
            XCTAssertGreaterThan(lane.hueDistance(to: scene.ballColor), 30)
        }
    }

    // MARK: Truth

    func testStraightBallHasNoEntryAngleAndOneBoard() throws {
        let truth = try XCTUnwrap(BowlingRenderer(scene: BowlingScene(shots: [.straight(board: 17.5)])).truths.first)
        XCTAssertEqual(try XCTUnwrap(truth.entryAngle), 0, accuracy: 1e-12)
        for board in [truth.foulLineBoard, truth.arrowBoard, truth.breakpointBoard, truth.pocketBoard] {
            XCTAssertEqual(board, 17.5)
        }
        XCTAssertTrue(truth.samples.allSatisfy { $0.board == 17.5 })
        XCTAssertNil(truth.breakpointDistance)
        XCTAssertFalse(truth.isGutter)
    }

    func testHookTruthMatchesItsParameters() throws {
        let scene = BowlingScene(shots: [.hook(.right, speedMph: 17, revRateRPM: 300)])
        let truth = try XCTUnwrap(BowlingRenderer(scene: scene).truths.first)
        XCTAssertEqual(truth.breakpointBoard, 7)
        XCTAssertEqual(truth.breakpointDistance, 40)
        XCTAssertEqual(truth.foulLineBoard, 15)
        XCTAssertEqual(truth.arrowBoard, 7 + 8 * (25.0 / 40) * (25.0 / 40), accuracy: 1e-12)
        XCTAssertEqual(truth.pocketBoard, 17.5, accuracy: 1e-12)
        XCTAssertEqual(truth.revRate, 300)
        XCTAssertFalse(truth.isGutter)

        // d(t) = v0·t − ½·a·t² with a = v0²(1 − 0.88²)/120: over frame times evenly spaced about their
        // mean, the least-squares slope is exactly v0 − a·(first + last)/2.
        let v0 = 17 * 5280.0 / 3600, a = v0 * v0 * (1 - 0.88 * 0.88) / 120
        let early = truth.samples.filter { $0.distanceFt <= 15 }.map { $0.time - truth.releaseTime }
        let expectedLaunch = (v0 - a * (early.first! + early.last!) / 2) * 3600 / 5280
        XCTAssertEqual(try XCTUnwrap(truth.launchSpeed), expectedLaunch, accuracy: 1e-9)
        XCTAssertLessThan(expectedLaunch, 17)
        XCTAssertGreaterThan(expectedLaunch, 17 * 0.95)
        let late = truth.samples.filter { $0.distanceFt >= 45 && $0.distanceFt <= 60 }.map { $0.time - truth.releaseTime }
        XCTAssertEqual(try XCTUnwrap(truth.impactSpeed), (v0 - a * (late.first! + late.last!) / 2) * 3600 / 5280,
                       accuracy: 1e-9)
        // At the pins the ball reaches 60 ft.
        let t60 = truth.pinsTime - truth.releaseTime
        XCTAssertEqual(v0 * t60 - a * t60 * t60 / 2, 60, accuracy: 1e-9)
        XCTAssertEqual(truth.releaseTime, 0.3, accuracy: 1e-12)
        XCTAssertEqual(truth.firstFrame, 9)

        // Entry angle: board slope over the last 10 ft ≈ 2h(55 − 40) with h = (17.5 − 7)/20².
        let h = (17.5 - 7) / 400
        let expectedAngle = atan(2 * h * 15 * 41.5 / 39 / 12) * 180 / .pi
        XCTAssertEqual(try XCTUnwrap(truth.entryAngle), expectedAngle, accuracy: 0.1)
    }

    func testLeftHandedHookMirrorsTheBreakpoint() throws {
        let truth = try XCTUnwrap(BowlingRenderer(scene: BowlingScene(hand: .left)).truths.first)
        XCTAssertEqual(truth.hand, .left)
        XCTAssertEqual(truth.breakpointBoard, 33)
        XCTAssertEqual(truth.breakpointDistance, 40)
        XCTAssertEqual(truth.pocketBoard, 22.5, accuracy: 1e-12)
        XCTAssertGreaterThan(try XCTUnwrap(truth.entryAngle), 3)
    }

    func testGutterBallLeavesTheLane() throws {
        let truth = try XCTUnwrap(BowlingRenderer(scene: BowlingScene(shots: [.gutter(.right)])).truths.first)
        XCTAssertTrue(truth.isGutter)
        // −3 + 13·((45 − d)/45)² = 0.5
        XCTAssertEqual(try XCTUnwrap(truth.gutterDistance), 45 - 45 * (3.5 / 13).squareRoot(), accuracy: 1e-6)
        XCTAssertLessThan(truth.pocketBoard, 0.5)
        XCTAssertTrue(truth.samples.filter { $0.distanceFt > 25 }.allSatisfy { $0.board < 0.5 })
        XCTAssertEqual(truth.breakpointDistance ?? 0, truth.gutterDistance ?? -1, accuracy: 1e-9)
    }

    func testTwoShotsAreSeparatedByEmptyLane() throws {
        let scene = BowlingScene(shots: [.hook(.right), .straight(board: 20)], gapSeconds: 1.0)
        let renderer = try BowlingRenderer(scene: scene)
        let truths = renderer.truths
        XCTAssertEqual(truths.count, 2)
        let firstEnd = renderer.paths[0].timeAfterRelease(atDistance: 62)
        XCTAssertEqual(truths[1].releaseTime, truths[0].releaseTime + firstEnd + 1.0, accuracy: 1e-9)
        let lastOfFirst = try XCTUnwrap(truths[0].lastFrame), firstOfSecond = try XCTUnwrap(truths[1].firstFrame)
        XCTAssertGreaterThanOrEqual(firstOfSecond - lastOfFirst, 29)
        // Between the shots the frame is the empty lane, identical to the first frame.
        let between = (lastOfFirst + firstOfSecond) / 2
        XCTAssertTrue(renderer.balls(inFrame: between).isEmpty)
        XCTAssertEqual(renderer.frame(at: between), renderer.frame(at: 0))
        XCTAssertEqual(truths[1].pocketBoard, 20)
    }

    func testOptionsJSONCarriesColoursAndLanePoints() throws {
        let scene = BowlingScene(camera: .behindBowler1080p, hand: .left, ballColor: .purple)
        let text = BowlingClipOptions(scene: scene).jsonString()
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(json["hand"] as? String, "left")
        let profile = try XCTUnwrap(json["ballProfile"] as? [String: Any])
        XCTAssertEqual((profile["color"] as? [String: Double])?["h"], 280)
        XCTAssertEqual(profile["colorTolerance"] as? Double, 15)
        XCTAssertEqual((profile["markerColor"] as? [String: Double])?["s"], 90)
        let lane = try XCTUnwrap((json["calibration"] as? [String: Any])?["lanePoints"] as? [String: Any])
        let points = LanePoints(camera: .behindBowler1080p)
        XCTAssertEqual(lane["foulLineLeft"] as? [Double], [points.foulLineLeft.x, points.foulLineLeft.y])
        XCTAssertEqual(lane["farRight"] as? [Double], [points.farRight.x, points.farRight.y])
        XCTAssertEqual(lane["farDistanceFt"] as? Double, 60)
        XCTAssertEqual(try JSONDecoder().decode(BowlingClipOptions.self, from: Data(text.utf8)),
                       BowlingClipOptions(scene: scene))
    }

    func testInvalidScenesAreRejected() {
        var slow = BowlingShot.hook(.right)
        slow.pinSpeedFraction = 0.2
        var offLane = BowlingShot.hook(.right)
        offLane.launchBoard = 41
        for scene in [BowlingScene(shots: []), BowlingScene(shots: [slow]), BowlingScene(shots: [offLane]),
                      BowlingScene(lastDrawnDistanceFt: 70)] {
            XCTAssertThrowsError(try BowlingRenderer(scene: scene))
        }
    }

    func testHueWrapsForRed() {
        XCTAssertEqual(SceneColor.red.rgb, RGBColor(191, 29, 29))
        XCTAssertEqual(SceneColor(h: 350, s: 80, v: 70).hueDistance(to: SceneColor(h: 5, s: 80, v: 70)), 15, accuracy: 1e-9)
        XCTAssertEqual(SceneColor(SceneColor.deepBlue.rgb).h, 220, accuracy: 1)
        // The lane wood is far from every preset ball colour.
        for ball in [SceneColor.deepBlue, .red, .purple] {
            XCTAssertGreaterThan(SceneColor(Self.wood).hueDistance(to: ball), 30)
        }
    }

    /// `RENDER_SAMPLE_DIR=/tmp/x .build/debug/ReelworkPackageTests.xctest BowlingTests.RendererTests/testWriteSampleClips`
    /// writes a few clips with their options and truth, to look at; skipped otherwise.
    func testWriteSampleClips() throws {
        guard let path = ProcessInfo.processInfo.environment["RENDER_SAMPLE_DIR"] else {
            throw XCTSkip("set RENDER_SAMPLE_DIR to write sample clips")
        }
        let directory = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let scenes: [(String, BowlingScene)] = [
            ("hook-right-behind", BowlingScene()),
            ("hook-left-side-red", BowlingScene(camera: .sideAngle720p, hand: .left, ballColor: .red, markerColor: .white,
                                                noise: .init())),
            ("gutter-1080p-purple", BowlingScene(camera: .behindBowler1080p, ballColor: .purple, shots: [.gutter(.right)])),
            ("two-shots", BowlingScene(shots: [.hook(.right), .straight()])),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        for (name, scene) in scenes {
            let truths = try BowlingRenderer.render(scene, to: directory.appendingPathComponent("\(name).mp4"))
            try BowlingClipOptions(scene: scene).jsonString().write(to: directory.appendingPathComponent("\(name).options.json"),
                                                                    atomically: true, encoding: .utf8)
            try encoder.encode(truths).write(to: directory.appendingPathComponent("\(name).truth.json"))
        }
    }

    // MARK: Helpers

    private func pixel(_ frame: [UInt8], _ point: ImagePoint, width: Int) -> RGBColor {
        let i = (Int(point.y.rounded()) * width + Int(point.x.rounded())) * 3
        return RGBColor(frame[i], frame[i + 1], frame[i + 2])
    }

    private func fingerprint(_ bytes: [UInt8]) -> UInt64 {
        // FNV-1a: enough to tell frames apart.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        return hash
    }

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("renderer-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
