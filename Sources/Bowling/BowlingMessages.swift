/// Every sentence the Bowling module shows a person. Seed 003's wording, verbatim, where it has one.
enum BowlingMessages {
    // Seed 003, "Calibration Errors".
    static let invalidCalibration = "Calibration measurements don't look right. Please try again from the start."
    static let extremeCameraAngle = "Camera angle is too extreme. Please position camera more directly behind the lane."
    static let foulLineNotVisible = "Foul line not visible. Please adjust camera to show the foul line at bottom of frame."

    // Seed 003, "Ball Detection Errors".
    static let ballNotDetected = "Ball not detected. Please ensure the ball is visible and consider recalibrating ball color."
    static let ballColorMatchesLane = "Ball color is difficult to distinguish. Try using a ball with more contrast to the lane."

    // Seed 003, "Tracking Errors".
    static let lostTracking = "Lost track of the ball. Shot may be incomplete."
    static let speedIncorrect = "Speed reading seems incorrect. Using estimated values."
    static let speedTooSlow = "Ball appears to have stopped. Was this a gutter ball?"
    static let revRateFailed = "Couldn't calculate rev rate for this shot."
    static let entryAngleUnusual = "Entry angle seems unusual. Please verify camera alignment."

    // Seed 003, "Fallback UI States" (unavailable reasons).
    static let calibrateForSpeed = "Complete lane calibration to measure speed"
    static let calibrateForBoards = "Complete lane calibration to measure board positions"
    static let calibrateForAngle = "Complete lane calibration to measure entry angle"
    static let calibrateForStrike = "Complete lane calibration to estimate strike probability"
    static let rotationNotDetected = "Ball rotation couldn't be detected. Try a textured ball."
    static let exitedBeforePins = "Ball exited frame before reaching pins"
    static let incompleteTrajectory = "Incomplete trajectory data"

    // Ours: no seed wording exists for these.
    static let speedNeedsVerification = "Speed above 30 mph. Please verify."
    static let noMarkerColor = "Set ballProfile.markerColor (the PAP marker's color) to measure rev rate"
    static let gutterBeforePins = "Ball went into the gutter before reaching pins"
    static let notTrackedAtDistance = "Ball wasn't tracked near this distance"
    static let noBreakpoint = "Ball didn't turn back toward the pocket"
    static let tooFewPointsForLaunch = "Ball wasn't tracked over the first 15 ft"
    static let tooFewPointsForAngle = "Too few tracked points over the last 10 ft"
    static func longGap(frames: Int) -> String {
        "Ball was hidden for \(frames) frames; that part of its path is interpolated."
    }
}
