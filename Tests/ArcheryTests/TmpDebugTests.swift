@testable import Archery
import ArcheryScenes
import ReelworkCore
import XCTest

final class TmpDebugTests: XCTestCase {
    func testDebug() throws {
        let photo = Scenes.photo()
        DebugDump.write(photo, name: "frontal")
        let working = WorkingImage(Scenes.image(photo))
        let found = try FaceFinder.find(in: working)
        let impacts = ArrowFinder.find(in: working, face: found, arrowRadius: 0.0045)
        for i in impacts { print(i) }
        let a = 0
        print(a)
        for t in photo.truth.arrows { print("truth", t.pixelX, t.pixelY) }
    }
}
