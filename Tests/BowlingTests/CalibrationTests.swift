import Foundation
import ReelworkCore
import SportMath
import XCTest
@testable import Bowling

/// A pinhole camera behind the foul line, independent of the code under test: lane (board, feet) → pixel.
struct PinholeCamera {
    var heightFt = 5.0
    var behindFt = 10.0
    var pitchDeg = 12.0
    var lateralFt = 0.0
    var focal = 900.0
    var cx = 320.0
    var cy = 150.0

    func project(board: Double, distanceFt: Double) -> (x: Double, y: Double) {
        let x = (20 - board) * 41.5 / 39 / 12 - lateralFt   // board 20 is the centre; board 0.5 on the right
        let dy = -heightFt, dz = distanceFt + behindFt, phi = pitchDeg * .pi / 180
        let zc = -dy * sin(phi) + dz * cos(phi)
        let yc = dy * cos(phi) + dz * sin(phi)
        return (cx + focal * x / zc, cy - focal * yc / zc)
    }

    func lanePoints(farFt: Double = 60) -> JSONValue {
        func point(_ p: (x: Double, y: Double)) -> JSONValue { .array([.number(p.x), .number(p.y)]) }
        return .object(["lanePoints": .object([
            "foulLineLeft": point(project(board: 39.5, distanceFt: 0)),
            "foulLineRight": point(project(board: 0.5, distanceFt: 0)),
            "farLeft": point(project(board: 39.5, distanceFt: farFt)),
            "farRight": point(project(board: 0.5, distanceFt: farFt)),
            "farDistanceFt": .number(farFt),
        ])])
    }
}

final class CalibrationTests: XCTestCase {
    func testHomographyMatchesAPinholeCamera() throws {
        let camera = PinholeCamera()
        let calibration = try XCTUnwrap(try TestOptions.parse(calibration: camera.lanePoints()).calibration)
        for (board, distance) in [(20.0, 0.0), (10.0, 15.0), (17.5, 60.0), (35.0, 42.0), (3.0, 7.5)] {
            let pixel = camera.project(board: board, distanceFt: distance)
            let lane = try XCTUnwrap(calibration.lanePoint(x: pixel.x, y: pixel.y))
            XCTAssertEqual(lane.board, board, accuracy: 1e-6)
            XCTAssertEqual(lane.distanceFt, distance, accuracy: 1e-6)
            let back = try XCTUnwrap(calibration.imagePoint(board: board, distanceFt: distance))
            XCTAssertEqual(back.x, pixel.x, accuracy: 1e-6)
            XCTAssertEqual(back.y, pixel.y, accuracy: 1e-6)
        }
    }

    func testHomographyFromFarLineShortOfThePins() throws {
        let camera = PinholeCamera(heightFt: 6, pitchDeg: 9)
        let calibration = try XCTUnwrap(try TestOptions.parse(calibration: camera.lanePoints(farFt: 40)).calibration)
        let pixel = camera.project(board: 25, distanceFt: 55)
        let lane = try XCTUnwrap(calibration.lanePoint(x: pixel.x, y: pixel.y))
        XCTAssertEqual(lane.board, 25, accuracy: 1e-6)
        XCTAssertEqual(lane.distanceFt, 55, accuracy: 1e-6)
    }

    func testFlatCalibrationBoardsAndFeet() throws {
        let calibration = try XCTUnwrap(try TestOptions.parse(calibration: TestOptions.flatCalibration).calibration)
        let centre = try XCTUnwrap(calibration.lanePoint(x: 160, y: 230))
        XCTAssertEqual(centre.board, 20, accuracy: 1e-9)
        XCTAssertEqual(centre.distanceFt, 0, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(calibration.lanePoint(x: 220, y: 20)).board, 0.5, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(calibration.lanePoint(x: 100, y: 20)).board, 39.5, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(calibration.lanePoint(x: 100, y: 20)).distanceFt, 60, accuracy: 1e-9)
        let arrow = try XCTUnwrap(calibration.imagePoint(board: 10, distanceFt: 15))
        XCTAssertEqual(arrow.x, 220 - 9.5 / 39 * 120, accuracy: 1e-9)
        XCTAssertEqual(arrow.y, 177.5, accuracy: 1e-9)
    }

    func testLinearSolverPivots() throws {
        // A zero on the diagonal needs a row swap.
        let x = try XCTUnwrap(LinearSolver.solve([0, 1, 1, 0], [2, 3]))
        XCTAssertEqual(x, [3, 2])
        XCTAssertNil(LinearSolver.solve([1, 2, 2, 4], [1, 2]))
    }

    private func lanePoints(_ fl: (Double, Double), _ fr: (Double, Double), _ farL: (Double, Double), _ farR: (Double, Double)) -> JSONValue {
        func p(_ q: (Double, Double)) -> JSONValue { .array([.number(q.0), .number(q.1)]) }
        return .object(["lanePoints": .object(["foulLineLeft": p(fl), "foulLineRight": p(fr), "farLeft": p(farL), "farRight": p(farR),
                                               "farDistanceFt": .number(60)])])
    }

    func testInvalidLanePoints() {
        let invalid = ReelworkError.needsPerson("Calibration measurements don't look right. Please try again from the start.")
        // Foul line narrower than seed 003's 50 px.
        XCTAssertThrows(invalid) { try TestOptions.parse(calibration: lanePoints((100, 230), (140, 230), (115, 20), (125, 20))) }
        // Far ends swapped (crossed).
        XCTAssertThrows(invalid) { try TestOptions.parse(calibration: lanePoints((0, 230), (300, 230), (170, 20), (130, 20))) }
        // Far line below the foul line.
        XCTAssertThrows(invalid) { try TestOptions.parse(calibration: lanePoints((0, 100), (300, 100), (130, 200), (170, 200))) }
        // Not convex.
        XCTAssertThrows(invalid) { try TestOptions.parse(calibration: lanePoints((0, 400), (300, 400), (240, 390), (250, 100))) }
        // Far wider than near.
        XCTAssertThrows(invalid) { try TestOptions.parse(calibration: lanePoints((100, 230), (200, 230), (0, 20), (300, 20))) }
        // Degenerate: all four on one line.
        XCTAssertThrows(invalid) { try TestOptions.parse(calibration: lanePoints((0, 230), (300, 230), (100, 230), (200, 230))) }
    }

    func testExtremeCameraAngle() throws {
        // A camera a few inches off the lane squeezes the arrows: foul line over arrows width > 3.
        let low = PinholeCamera(heightFt: 0.6, behindFt: 2, pitchDeg: 1)
        XCTAssertThrows(.needsPerson("Camera angle is too extreme. Please position camera more directly behind the lane.")) {
            try TestOptions.parse(calibration: low.lanePoints())
        }
        // The usual camera passes.
        XCTAssertNotNil(try TestOptions.parse(calibration: PinholeCamera().lanePoints()).calibration)
    }

    func testInvalidFlatCalibration() {
        let invalid = ReelworkError.needsPerson("Calibration measurements don't look right. Please try again from the start.")
        func flat(_ changes: [String: Double]) -> JSONValue {
            guard case .object(var fields) = TestOptions.flatCalibration else { return .null }
            for (key, value) in changes { fields[key] = .number(value) }
            return .object(fields)
        }
        XCTAssertThrows(invalid) { try TestOptions.parse(calibration: flat(["leftGutterX": 190, "pixelsPerBoard": 30.0 / 39])) }
        XCTAssertThrows(invalid) { try TestOptions.parse(calibration: flat(["arrowsY": 235])) }
        XCTAssertThrows(invalid) { try TestOptions.parse(calibration: flat(["pixelsPerBoard": 20])) }
    }

    func testFoulLineOutsideTheFrame() throws {
        let options = try TestOptions.parse(calibration: PinholeCamera().lanePoints())
        // The camera's foul line sits near y 384 of a 640×480 picture: visible there, not in 320×240.
        XCTAssertNoThrow(try BallTracker(options: options, frameWidth: 640, frameHeight: 480, frameRate: 30))
        XCTAssertThrows(.needsPerson("Foul line not visible. Please adjust camera to show the foul line at bottom of frame.")) {
            try BallTracker(options: options, frameWidth: 320, frameHeight: 240, frameRate: 30)
        }
    }
}
