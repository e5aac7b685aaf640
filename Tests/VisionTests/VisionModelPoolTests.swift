import Vision
import XCTest

final class VisionModelPoolTests: XCTestCase {
    func testAKeepingPoolHandsTheSameSetBackAndADefaultPoolLoadsAfresh() throws {
        try RealModels.require()
        let keeping = VisionModelPool(keepsIdleModels: true)
        let first = try keeping.checkout(Paths.settings, threads: 1)
        keeping.checkin(first)
        XCTAssertTrue(try keeping.checkout(Paths.settings, threads: 1) === first)
        // Another thread count is another set.
        XCTAssertFalse(try keeping.checkout(Paths.settings, threads: 2) === first)

        let releasing = VisionModelPool()
        XCTAssertFalse(releasing.keepsIdleModels)
        weak var released: VisionModels?
        func job() throws {
            let models = try releasing.checkout(Paths.settings, threads: 1)
            released = models
            releasing.checkin(models)
        }
        try job()
        XCTAssertNil(released, "a released set is freed once its job drops it")
    }
}
