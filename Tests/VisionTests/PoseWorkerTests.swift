@testable import Pipeline
import ReelworkCore
import TestSupport
import Vision
import XCTest

/// The pose thread gives exactly what the in-line path gives, in submission order, and its
/// failures reach the pass instead of hanging it.
final class PoseWorkerTests: XCTestCase {
    func testPosesFromThePoseThreadEqualTheInLineOnesInOrder() throws {
        let models = try RealModels.models()
        let picture = try DecodedPicture(Paths.photo("bus.jpg"))
        let people = try picture.withImage { try models.detector.detect($0) }.filter { $0.classId == COCOClass.person }
        XCTAssertGreaterThanOrEqual(people.count, 3)

        // In line first (the estimator's own input buffer), then the same crops through the worker, twice over.
        let inLine = try picture.withImage { image in try people.map { try XCTUnwrap(try models.pose.estimate(image, personBox: $0.box)) } }
        let worker = PoseWorker(estimator: models.pose)
        for round in 0..<2 {
            try submit(people, of: picture, at: Double(round), to: worker, models: models)
        }
        let estimates = try worker.finish()
        XCTAssertEqual(estimates.map(\.trackId), Array(people.indices) + Array(people.indices), "submission order")
        XCTAssertEqual(estimates.map(\.time), Array(repeating: 0.0, count: people.count) + Array(repeating: 1.0, count: people.count))
        for (estimate, expected) in zip(estimates, inLine + inLine) {
            XCTAssertEqual(estimate.pose, expected, "same crop, same pose")
        }
        worker.cancel()   // after finish: returns at once
    }

    /// `waitForAll` returns every estimate submitted so far (a followed frame's poses, needed for the
    /// next frame's crops) and leaves the worker open for the next frame.
    func testWaitForAllReturnsEverySubmittedPoseAndTheWorkerGoesOn() throws {
        let models = try RealModels.models()
        let picture = try DecodedPicture(Paths.photo("bus.jpg"))
        let people = try picture.withImage { try models.detector.detect($0) }.filter { $0.classId == COCOClass.person }
        XCTAssertGreaterThanOrEqual(people.count, 3)
        let worker = PoseWorker(estimator: models.pose)
        for frame in 0..<3 {
            try submit(people, of: picture, at: Double(frame), to: worker, models: models)
            let estimates = try worker.waitForAll()
            XCTAssertEqual(estimates.map(\.trackId), Array(people.indices), "frame \(frame): every pose, in order")
            XCTAssertEqual(Set(estimates.map(\.time)), [Double(frame)])
        }
        XCTAssertEqual(try worker.finish().count, 0, "nothing left once every frame was waited for")
        let failing = PoseWorker(estimator: models.pose)
        let crop = try XCTUnwrap(PoseCrop(around: BoundingBox(x1: 10, y1: 10, x2: 60, y2: 160)))
        try failing.submit(PoseWorker.Job(time: 0, trackId: 1, box: crop.box, detected: true, crop: crop, tensor: [0, 1, 2]))
        XCTAssertThrowsError(try failing.waitForAll(), "a failure reaches the waiting caller instead of hanging it")
        failing.cancel()
    }

    /// Each person's crop of `picture`, prepared here and estimated on the worker, track ids in order.
    private func submit(_ people: [Detection], of picture: DecodedPicture, at time: Double, to worker: PoseWorker,
                        models: VisionModels) throws {
        for (index, person) in people.enumerated() {
            var tensor = worker.tensor()
            let crop = try XCTUnwrap(picture.withImage { models.pose.prepare($0, personBox: person.box, into: &tensor) })
            try worker.submit(PoseWorker.Job(time: time, trackId: index, box: person.box, detected: true, crop: crop, tensor: tensor))
        }
    }

    func testAFailingRunReachesTheCallerAndCancelDoesNotHang() throws {
        let models = try RealModels.models()
        let worker = PoseWorker(estimator: models.pose)
        let crop = try XCTUnwrap(PoseCrop(around: BoundingBox(x1: 10, y1: 10, x2: 60, y2: 160)))
        // A tensor of the wrong size makes the session refuse the input.
        try worker.submit(PoseWorker.Job(time: 0, trackId: 1, box: BoundingBox(x1: 10, y1: 10, x2: 60, y2: 160), detected: true,
                                         crop: crop, tensor: [0, 1, 2]))
        XCTAssertThrowsError(try worker.finish()) { error in
            XCTAssertTrue("\(error)".contains("3 values"), "\(error)")
        }

        let idle = PoseWorker(estimator: models.pose)
        idle.cancel()
        XCTAssertEqual(try idle.finish().count, 0)
    }
}
