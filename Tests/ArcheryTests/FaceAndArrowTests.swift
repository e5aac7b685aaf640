import Archery
import ArcheryScenes
import ReelworkCore
import XCTest

final class FaceAndArrowTests: XCTestCase {
    func testFrontalPhotoScoresEveryArrow() throws {
        let photo = Scenes.photo()
        let end = try ArcheryAnalyzer.analyze(Scenes.image(photo), options: ArcheryOptions())
        print(end.json().jsonString())
        print(photo.truth)
        XCTAssertEqual(end.face.centerX, photo.truth.centerX, accuracy: 2)
        XCTAssertEqual(end.face.centerY, photo.truth.centerY, accuracy: 2)
        XCTAssertEqual(end.face.radiusPx, photo.truth.radiusPx, accuracy: 0.01 * photo.truth.radiusPx)
        Scenes.assertScored(end, photo.truth)
    }
}
