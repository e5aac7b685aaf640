import Foundation
import Inference
import Media
import ReelworkCore
import TestSupport
import Vision
import XCTest

/// The Swift path against the Python reference (tools/models/reference_infer.py, ONNX Runtime's
/// Python package) on the real models and photos.
///
/// Three comparisons, from the inside out:
/// 1. the same preprocessed tensor (Python's `--dump-raw`) through both: decoding, NMS and the
///    landmark mapping agree to ~0.01 px (boxes ≤ 2 px, landmarks ≤ 1 px asserted);
/// 2. the same RGB pixels (FFmpeg's decode of the JPEG, handed to Python as a PPM): Swift's resize
///    and crop produce Python's tensors bit for bit, so results agree as in 1;
/// 3. end to end from the JPEG: FFmpeg's JPEG decoder and colour conversion against Pillow's
///    (libjpeg's): pixels differ by a few levels, see `testEndToEndFromTheJPEG` for what holds.
final class ReferenceAgreementTests: XCTestCase {
    static let photos = ["bus.jpg", "zidane.jpg", "person.jpg"]
    /// People YOLOv4-tiny finds at threshold 0.25 (tools/models/README.md's table).
    static let people = ["bus.jpg": 3, "zidane.jpg": 1, "person.jpg": 1]
    static let boxTolerance = 2.0
    static let landmarkTolerance = 1.0

    private var scratch: ScratchDirectory!

    override func setUpWithError() throws {
        scratch = try ScratchDirectory()
    }

    override func tearDown() {
        scratch?.remove()
    }

    /// Asserts both lists hold the same detections (class, score within `scoreTolerance`, corners within `tolerance`).
    private func assertSame(_ ours: [Detection], _ theirs: [PythonReference.Box], tolerance: Double, scoreTolerance: Double = 1e-3,
                            _ what: String, file: StaticString = #filePath, line: UInt = #line) -> Double {
        XCTAssertEqual(ours.map(\.classId), theirs.map(\.class), "\(what): classes", file: file, line: line)
        var worst = 0.0
        for (mine, reference) in zip(ours, theirs) {
            XCTAssertEqual(mine.confidence, reference.score, accuracy: scoreTolerance, "\(what): score", file: file, line: line)
            let distance = mine.box.distance(to: reference.box)
            worst = max(worst, distance)
            XCTAssertLessThanOrEqual(distance, tolerance, "\(what): \(mine.box) vs \(reference.box)", file: file, line: line)
        }
        return worst
    }

    private func assertSame(_ ours: Pose, _ theirs: PythonReference.PoseResult, tolerance: Double, _ what: String,
                            file: StaticString = #filePath, line: UInt = #line) -> Double {
        XCTAssertEqual(ours.landmarks.count, 33, file: file, line: line)
        XCTAssertEqual(ours.score, theirs.score, accuracy: 1e-3, "\(what): presence", file: file, line: line)
        var worst = 0.0
        for (index, (mine, reference)) in zip(ours.landmarks, theirs.landmarks).enumerated() {
            let distance = max(abs(mine.x - reference.x), abs(mine.y - reference.y))
            worst = max(worst, distance)
            XCTAssertLessThanOrEqual(distance, tolerance,
                "\(what): \(Pose.landmarkNames[index]) (\(mine.x), \(mine.y)) vs (\(reference.x), \(reference.y))", file: file, line: line)
        }
        return worst
    }

    func testDetectorAgreesWithPythonOnTheSameTensor() throws {
        let models = try RealModels.models()
        for photo in Self.photos {
            let raw = scratch.path("\(photo).yolo.raw")
            let fromImage = try PythonReference.yolo(image: Paths.photo(photo), dump: raw)
            let picture = try DecodedPicture(Paths.photo(photo))
            let theirs = try PythonReference.yolo(raw: raw, width: picture.width, height: picture.height)
            XCTAssertEqual(theirs.map(\.box), fromImage.map(\.box), "--raw gives what the image gave")
            let ours = try models.detector.detect(preprocessed: try readFloats(raw), sourceWidth: picture.width, sourceHeight: picture.height)
            XCTAssertEqual(ours.filter { $0.classId == COCOClass.person }.count, Self.people[photo], "\(photo): the people are found")
            let worst = assertSame(ours, theirs, tolerance: Self.boxTolerance, "\(photo) same tensor")
            print("\(photo): same tensor, boxes differ by at most \(worst) px")
        }
    }

    func testPoseAgreesWithPythonOnTheSameTensor() throws {
        let models = try RealModels.models()
        for photo in Self.photos {
            let person = try XCTUnwrap(try PythonReference.yolo(image: Paths.photo(photo)).first { $0.class == 0 })
            let raw = scratch.path("\(photo).pose.raw")
            _ = try PythonReference.pose(image: Paths.photo(photo), box: person.box, dump: raw)
            let theirs = try PythonReference.pose(raw: raw, box: person.box)
            let crop = try XCTUnwrap(PoseCrop(around: BoundingBox(x1: person.box[0], y1: person.box[1], x2: person.box[2], y2: person.box[3])))
            XCTAssertEqual(crop.left, theirs.crop[0], accuracy: 0.001)
            XCTAssertEqual(crop.top, theirs.crop[1], accuracy: 0.001)
            XCTAssertEqual(crop.side, theirs.crop[2], accuracy: 0.001)
            let ours = try models.pose.estimate(preprocessed: try readFloats(raw), crop: crop)
            let worst = assertSame(ours, theirs, tolerance: Self.landmarkTolerance, "\(photo) same tensor")
            print("\(photo): same tensor, landmarks differ by at most \(worst) px")
        }
    }

    /// Swift's resize and crop against Python's on identical pixels: the tensors must be identical,
    /// and so the results.
    func testPreprocessingMatchesPythonOnTheSamePixels() throws {
        let models = try RealModels.models()
        for photo in Self.photos {
            let picture = try DecodedPicture(Paths.photo(photo))
            let ppm = scratch.path("\(photo).ppm")
            try picture.writePPM(to: ppm)

            let raw = scratch.path("\(photo).yolo.raw")
            let theirs = try PythonReference.yolo(image: ppm, dump: raw)
            let ours = try picture.withImage { try models.detector.detect($0) }
            XCTAssertEqual(maxDifference(models.detector.inputValues, try readFloats(raw)), 0, "\(photo): detector input tensors")
            let worstBox = assertSame(ours, theirs, tolerance: Self.boxTolerance, "\(photo) same pixels")

            let person = try XCTUnwrap(ours.first { $0.classId == COCOClass.person })
            let poseRaw = scratch.path("\(photo).pose.raw")
            let theirPose = try PythonReference.pose(image: ppm, box: person.box.corners, dump: poseRaw)
            let ourPose = try XCTUnwrap(try picture.withImage { try models.pose.estimate($0, personBox: person.box) })
            XCTAssertEqual(maxDifference(models.pose.inputValues, try readFloats(poseRaw)), 0, "\(photo): pose input tensors")
            let worstLandmark = assertSame(ourPose, theirPose, tolerance: Self.landmarkTolerance, "\(photo) same pixels")
            print("\(photo): same pixels, boxes ≤ \(worstBox) px, landmarks ≤ \(worstLandmark) px")
        }
    }

    /// From the JPEG file: FFmpeg decodes it for Swift, Pillow (libjpeg) for Python, so the pixels
    /// differ by a few levels (IDCT rounding, chroma upsampling) before any model runs. Measured on
    /// these photos (2026-11): with `.accurate` colour conversion boxes agree within 1.6 px and
    /// landmarks (same person box) within 0.7 px on bus.jpg, 3.0 px on zidane.jpg's hidden arm and 2.2 px
    /// on person.jpg's hidden wrist, medians 0.2–0.8 px; with `.fast` (the default for video) boxes
    /// within 3.0 px. So end to end the box tolerance holds with `.accurate` and the landmark one
    /// only for visible points of clear crops; the bounds below are those measurements with a margin,
    /// to catch regressions, not the agreement tolerances (which tests 1 and 2 meet).
    ///
    /// With the fp32 detector: these bounds measure the decoders' pixel differences, which the int8
    /// default amplifies (a few levels can flip an activation's quantization step; up to 5.4 px on
    /// bus.jpg). The int8 detector's agreement on identical pixels is checked above.
    func testEndToEndFromTheJPEG() throws {
        let models = try RealModels.fp32Models()
        for (conversion, boxBound) in [(DecodeOptions.ColorConversion.accurate, Self.boxTolerance), (.fast, 4.0)] {
            for photo in Self.photos {
                let picture = try DecodedPicture(Paths.photo(photo), colorConversion: conversion)
                let theirs = try PythonReference.yolo(image: Paths.photo(photo), model: Paths.fp32Settings.detectorModel)
                let ours = try picture.withImage { try models.detector.detect($0) }
                let worstBox = assertSame(ours, theirs, tolerance: boxBound, scoreTolerance: 0.05, "\(photo) \(conversion) from the JPEG")

                let person = try XCTUnwrap(theirs.first { $0.class == 0 })
                let box = BoundingBox(x1: person.box[0], y1: person.box[1], x2: person.box[2], y2: person.box[3])
                let theirPose = try PythonReference.pose(image: Paths.photo(photo), box: person.box)
                let ourPose = try XCTUnwrap(try picture.withImage { try models.pose.estimate($0, personBox: box) })
                let distances = zip(ourPose.landmarks, theirPose.landmarks).map { max(abs($0.x - $1.x), abs($0.y - $1.y)) }.sorted()
                XCTAssertLessThanOrEqual(distances[distances.count / 2], Self.landmarkTolerance, "\(photo) \(conversion): median landmark")
                XCTAssertLessThanOrEqual(distances.last!, 6, "\(photo) \(conversion): worst landmark")
                print("\(photo) \(conversion) from the JPEG: boxes ≤ \(worstBox) px, landmarks median \(distances[distances.count / 2]) px, max \(distances.last!) px")
            }
        }
    }
}
