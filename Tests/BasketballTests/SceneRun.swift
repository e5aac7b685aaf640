import Basketball
import BasketballScenes
import ReelworkCore
import XCTest

/// Runs scenes through the tracker as the pipeline will: every frame, in order.
enum SceneRun {
    /// The session most tests use: two- and three-point attempts of every kind, with dribbles and passes between.
    static let script: [SceneEvent] = [
        .dribble(playerX: 16, bounces: 3),
        .shot(.swish, distanceFt: 15),
        .pass(playerX: 20, towardHoop: false),
        .shot(.rimOut, distanceFt: 18),
        .dribble(playerX: 12, bounces: 2),
        .shot(.bank, distanceFt: 12),
        .pass(playerX: 14, towardHoop: true),
        .shot(.airball, distanceFt: 24),
        .shot(.swish, distanceFt: 24),
        .shot(.offBoard, distanceFt: 16),
        .dribble(playerX: 24, bounces: 2),
    ]

    static func hoopOption(_ scene: ShootingScene) -> JSONValue {
        let ends = scene.rimEnds
        return .object(["rimLeft": .array([.number(ends.left.x), .number(ends.left.y)]),
                        "rimRight": .array([.number(ends.right.x), .number(ends.right.y)])])
    }

    /// Options with the scene's hoop unless `withHoop` is false.
    static func options(_ scene: ShootingScene, withHoop: Bool = true, extra: [String: JSONValue] = [:]) throws -> BasketballOptions {
        var fields = extra
        if withHoop { fields["hoop"] = hoopOption(scene) }
        return try BasketballOptions.parse(.object(fields))
    }

    static func analyse(_ scene: ShootingScene, options: BasketballOptions,
                        boxes: ((Int) -> [BallBox]?)? = nil) throws -> BasketballResult {
        let renderer = ShootingSceneRenderer(scene: scene)
        let tracker = try BasketballTracker(options: options, frameWidth: scene.view.width, frameHeight: scene.view.height,
                                            frameRate: Double(scene.fps))
        var pixels: [UInt8] = []
        for index in 0..<scene.frameCount {
            renderer.render(frame: index, into: &pixels)
            let frame = try XCTUnwrap(PackedRGBFrame(width: scene.view.width, height: scene.view.height, pixels: pixels))
            try tracker.process(frame, time: scene.time(ofFrame: index), frameIndex: index, ballBoxes: boxes?(index))
        }
        return try tracker.finish()
    }

    /// Every attempt matched to its truth by release time (within 0.4 s), in order.
    static func assertMatches(_ result: BasketballResult, _ truth: [AttemptTruth], distanceTolerance: Double = 1.0,
                              file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.shots.count, truth.count, "attempts: \(describe(result))", file: file, line: line)
        for (shot, expected) in zip(result.shots, truth) {
            let name = "shot \(shot.shotNumber) (\(expected.kind) from \(expected.distanceFt) ft)"
            XCTAssertEqual(shot.releaseTime, expected.releaseTime, accuracy: 0.4, name, file: file, line: line)
            XCTAssertEqual(shot.made, expected.made, name, file: file, line: line)
            XCTAssertEqual(shot.shotType, expected.isThreePoint ? .threePoint : .twoPoint, name, file: file, line: line)
            XCTAssertEqual(shot.distanceFt, expected.distanceFt, accuracy: distanceTolerance, name, file: file, line: line)
            XCTAssertGreaterThan(shot.rimTime, shot.releaseTime, name, file: file, line: line)
        }
    }

    static func describe(_ result: BasketballResult) -> String {
        result.shots.map { s in
            "#\(s.shotNumber) t=\(s.releaseTime) rim=\(s.rimTime) \(s.made ? "made" : "miss") \(s.shotType.rawValue) \(String(format: "%.1f", s.distanceFt)) ft c=\(s.confidence)"
        }.joined(separator: "; ")
    }
}
