import Foundation

/// The image points a person would click to calibrate: the lane's edges at the foul line and at
/// `farDistanceFt`. "Left" is the board 39.5 edge, "right" the board 0.5 edge, as seen from behind.
public struct LanePoints: Equatable, Sendable, Codable {
    public var foulLineLeft: ImagePoint
    public var foulLineRight: ImagePoint
    public var farLeft: ImagePoint
    public var farRight: ImagePoint
    public var farDistanceFt: Double

    /// The exact projections through `camera` (the lane surface, y = 0).
    public init(camera: LaneCamera, farDistanceFt: Double = LaneGeometry.pinsDistanceFt) {
        func point(board: Double, distance: Double) -> ImagePoint {
            guard let p = camera.project(.onLane(board: board, distanceFt: distance)) else {
                preconditionFailure("lane point behind the camera")
            }
            return p
        }
        foulLineLeft = point(board: LaneGeometry.leftEdgeBoard, distance: 0)
        foulLineRight = point(board: LaneGeometry.rightEdgeBoard, distance: 0)
        farLeft = point(board: LaneGeometry.leftEdgeBoard, distance: farDistanceFt)
        farRight = point(board: LaneGeometry.rightEdgeBoard, distance: farDistanceFt)
        self.farDistanceFt = farDistanceFt
    }
}

/// A bowling job's options for a rendered clip:
/// `{"hand", "ballProfile": {"color": {h,s,v}, "colorTolerance", "markerColor"}, "calibration": {"lanePoints": {...}}}`.
public struct BowlingClipOptions: Equatable, Sendable, Codable {
    public struct BallProfile: Equatable, Sendable, Codable {
        public var color: SceneColor
        public var colorTolerance: Double
        public var markerColor: SceneColor?
    }

    public struct Calibration: Equatable, Sendable, Codable {
        public var lanePoints: LanePoints
    }

    public var hand: BowlingHand
    public var ballProfile: BallProfile
    public var calibration: Calibration

    public init(scene: BowlingScene, colorTolerance: Double = 15, includeMarker: Bool = true) {
        hand = scene.hand
        ballProfile = BallProfile(color: scene.ballColor, colorTolerance: colorTolerance,
                                  markerColor: includeMarker ? scene.markerColor : nil)
        calibration = Calibration(lanePoints: LanePoints(camera: scene.camera))
    }

    /// Sorted keys, so the same scene always gives the same text.
    public func jsonString() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding these plain numbers and strings cannot fail.
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }
}
