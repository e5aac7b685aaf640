@testable import Archery
import ArcheryScenes
import ReelworkCore
import XCTest

final class TmpDebugTests: XCTestCase {
    func testDebug() throws {
        let photo = Scenes.photo(arrows: [], faceDiameterCm: 40, arrowDiameterMm: 9.3)
        DebugDump.write(photo, name: "forty")
        let working = WorkingImage(Scenes.image(photo))
        let trace = RingBoundaryTracer.trace(working)!
        print(trace.points.map(\.count), trace.radiusGuess)
        for (k, p) in trace.points.enumerated() { if let f = ConicFit.fit(p) { print(k, f.inliers.count, f.semiAxis1, f.semiAxis2) } }
    }
}
