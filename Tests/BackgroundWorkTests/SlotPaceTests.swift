import Foundation
import XCTest

@testable import Worker

/// How a slot's loop paces its rounds.
final class SlotPaceTests: XCTestCase {
    func testAThreadWhoseRunTheWatchdogEndedLeavesInsteadOfClaimingAgain() {
        XCTAssertNil(SlotWork.pace(.ran(UUID(), takenOver: true)), "the watchdog gives the slot a new thread")
        XCTAssertEqual(SlotWork.pace(.ran(UUID(), takenOver: false)), 0)
        XCTAssertEqual(SlotWork.pace(.idle), 0)
        XCTAssertEqual(SlotWork.pace(.failed(backoff: 2)), 2)
        XCTAssertNil(SlotWork.pace(.retired))
    }
}
