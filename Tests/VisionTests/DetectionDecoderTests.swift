import Media
import ReelworkCore
import Vision
import XCTest

/// YOLO output layouts and their decoding, on hand-made tensors.
final class DetectionDecoderTests: XCTestCase {
    func testLayoutsAreToldApartByShape() throws {
        XCTAssertEqual(try DetectorLayout(shape: [1, 2535, 85], model: "m"), .darknet(boxes: 2535, classes: 80))
        XCTAssertEqual(try DetectorLayout(shape: [1, 84, 8400], model: "m"), .ultralytics(boxes: 8400, classes: 80))
        XCTAssertEqual(try DetectorLayout(shape: [1, 1500, 7], model: "m"), .darknet(boxes: 1500, classes: 2))
        XCTAssertEqual(try DetectorLayout(shape: [1, 5, 100], model: "m"), .ultralytics(boxes: 100, classes: 1))
        for shape in [[1, 7, 3], [1, 85, 85], [2535, 85], [1, 1, 2535, 85], [2, 2535, 85], [1, -1, 85]] {
            XCTAssertThrowsError(try DetectorLayout(shape: shape, model: "'x.onnx'"), "\(shape)") { error in
                let vision = error as? VisionError
                XCTAssertEqual(vision?.component, .detector)
                XCTAssertEqual(vision?.kind, .internal)
                let shown = "[" + shape.map { $0 < 0 ? "?" : String($0) }.joined(separator: ", ") + "]"
                XCTAssertTrue(vision?.message.contains(shown) == true, "\(error) should name \(shown)")
                XCTAssertTrue(vision?.message.contains("'x.onnx'") == true, "\(error)")
            }
        }
    }

    /// One Darknet row: cx, cy, w, h (fractions), objectness, then class probabilities.
    private func darknetRow(_ cx: Float, _ cy: Float, _ w: Float, _ h: Float, objectness: Float, classes: [Int: Float], count: Int) -> [Float] {
        [cx, cy, w, h, objectness] + (0..<count).map { classes[$0] ?? 0 }
    }

    func testDarknetRowsBecomeScoredBoxesWithPerClassNMS() {
        let classes = 3
        let rows: [[Float]] = [
            darknetRow(0.5, 0.5, 0.2, 0.4, objectness: 0.9, classes: [0: 0.9], count: classes),    // person 0.81
            darknetRow(0.51, 0.5, 0.2, 0.4, objectness: 0.8, classes: [0: 0.9], count: classes),   // overlaps it: suppressed
            darknetRow(0.51, 0.5, 0.2, 0.4, objectness: 0.8, classes: [2: 0.5], count: classes),   // same place, other class: kept
            darknetRow(0.1, 0.1, 0.1, 0.1, objectness: 0.2, classes: [1: 1], count: classes),      // objectness too low
            darknetRow(0.95, 0.9, 0.2, 0.4, objectness: 0.5, classes: [1: 0.6], count: classes),   // clamped at the edges
            darknetRow(0.2, 0.2, 0.1, 0.1, objectness: 0.5, classes: [1: 0.5], count: classes),    // exactly 0.25: not above
        ] + Array(repeating: darknetRow(0, 0, 0, 0, objectness: 0, classes: [:], count: classes), count: 4)
        var decoder = DetectionDecoder(layout: .darknet(boxes: rows.count, classes: classes), inputWidth: 416, inputHeight: 416)
        let found = decoder.decode(FixedBuffer(rows.flatMap { $0 }), sourceWidth: 200, sourceHeight: 100)
        XCTAssertEqual(found.map(\.classId), [0, 2, 1])
        XCTAssertEqual(found[0].confidence, Double(Float(0.9)) * Double(Float(0.9)), accuracy: 1e-12)
        for (value, expected) in zip(found[0].box.corners, [80.0, 30, 120, 70]) {
            XCTAssertEqual(value, expected, accuracy: 1e-4, "fractions × the source size")
        }
        XCTAssertEqual(found[1].confidence, 0.4, accuracy: 1e-6)
        XCTAssertEqual(found[2].box.x2, 200, "clamped to the frame")
        XCTAssertEqual(found[2].box.y2, 100)
        XCTAssertEqual(found[2].box.x1, 170, accuracy: 1e-5)
    }

    func testUltralyticsColumnsAreInInputPixels() {
        let boxes = 6, classes = 2
        var output = [Float](repeating: 0, count: (4 + classes) * boxes)
        func set(_ box: Int, _ values: [Float]) {
            for (a, v) in values.enumerated() { output[a * boxes + box] = v }
        }
        set(0, [320, 160, 64, 32, 0.9, 0])   // class 0, 0.9
        set(3, [100, 100, 20, 20, 0, 0.7])   // class 1, 0.7
        set(4, [322, 160, 64, 32, 0.8, 0])   // overlaps box 0, same class: suppressed
        var decoder = DetectionDecoder(layout: .ultralytics(boxes: boxes, classes: classes), inputWidth: 640, inputHeight: 640)
        let found = decoder.decode(FixedBuffer(output), sourceWidth: 1280, sourceHeight: 720)
        XCTAssertEqual(found.map(\.classId), [0, 1])
        XCTAssertEqual(found[0].box.corners, [576, 162, 704, 198], "× 1280/640 and × 720/640")
        XCTAssertEqual(found[1].confidence, Double(Float(0.7)))

        // The same output from a letterboxed input (1280 × 720 fitted into 640 × 360 at top 140).
        let placement = LetterboxPlacement(left: 0, top: 140, width: 640, height: 360, sourcePerInputPixel: 2)
        let boxed = decoder.decode(FixedBuffer(output), sourceWidth: 1280, sourceHeight: 720, letterbox: placement)
        XCTAssertEqual(boxed[0].box.corners, [576, 8, 704, 72])
    }

    func testIoU() {
        let a = BoundingBox(x1: 0, y1: 0, x2: 10, y2: 10), b = BoundingBox(x1: 5, y1: 0, x2: 15, y2: 10)
        XCTAssertEqual(a.iou(b), 50.0 / 150.0, accuracy: 1e-12)
        XCTAssertEqual(a.iou(BoundingBox(x1: 20, y1: 20, x2: 30, y2: 30)), 0)
        XCTAssertEqual(BoundingBox(x1: 1, y1: 1, x2: 1, y2: 1).iou(BoundingBox(x1: 1, y1: 1, x2: 1, y2: 1)), 0, "empty boxes")
    }
}
