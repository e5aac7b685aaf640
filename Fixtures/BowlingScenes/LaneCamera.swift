import Foundation

/// An ideal pinhole camera in lane coordinates (feet), no lens distortion and no roll, so projections
/// are exact and tests can compare image positions with the ground truth. (Not named PinholeCamera:
/// BowlingTests has its own small one of that name, which would shadow this.)
public struct LaneCamera: Equatable, Sendable {
    /// Where the camera is: behind the foul line (negative z), `y` feet high, `x` across like a board.
    public let position: LaneCoordinate
    /// Rotation about the vertical: 0 looks straight down-lane, positive turns toward the lane's
    /// left edge (+x, board 39.5 side).
    public let yawDegrees: Double
    /// Tilt: positive looks down toward the lane.
    public let pitchDegrees: Double
    public let focalPx: Double
    public let width: Int
    public let height: Int

    // The camera's axes in lane coordinates, kept so a projection is three dot products.
    let forward: LaneCoordinate
    let right: LaneCoordinate
    let up: LaneCoordinate

    public init(position: LaneCoordinate, yawDegrees: Double, pitchDegrees: Double, focalPx: Double,
                width: Int, height: Int) {
        self.position = position
        self.yawDegrees = yawDegrees
        self.pitchDegrees = pitchDegrees
        self.focalPx = focalPx
        self.width = width
        self.height = height
        let yaw = yawDegrees * .pi / 180, pitch = pitchDegrees * .pi / 180
        forward = LaneCoordinate(x: cos(pitch) * sin(yaw), y: -sin(pitch), z: cos(pitch) * cos(yaw))
        // Lane x grows to the image's left when looking down-lane, so right = forward × up.
        right = forward.cross(LaneCoordinate(x: 0, y: 1, z: 0)).normalized
        up = right.cross(forward)
    }

    /// The image centre: pixel centres sit on integer coordinates.
    public var principalPoint: ImagePoint {
        ImagePoint(x: Double(width - 1) / 2, y: Double(height - 1) / 2)
    }

    /// Distance of `point` along the viewing axis (positive in front of the camera).
    public func depth(of point: LaneCoordinate) -> Double {
        (point - position).dot(forward)
    }

    /// The image position of `point`, or nil when it is not in front of the camera.
    public func project(_ point: LaneCoordinate) -> ImagePoint? {
        let offset = point - position
        let depth = offset.dot(forward)
        guard depth > 1e-6 else { return nil }
        let centre = principalPoint
        return ImagePoint(x: centre.x + focalPx * offset.dot(right) / depth,
                          y: centre.y - focalPx * offset.dot(up) / depth)
    }

    /// The radius in pixels of the disc a sphere of `radiusFt` centred on `centre` is drawn as.
    public func projectedRadius(ofSphereAt centre: LaneCoordinate, radiusFt: Double) -> Double {
        focalPx * radiusFt / depth(of: centre)
    }

    public func contains(_ point: ImagePoint, margin: Double = 0) -> Bool {
        point.x >= margin && point.y >= margin
            && point.x <= Double(width - 1) - margin && point.y <= Double(height - 1) - margin
    }

    // Presets: each shows the whole lane, foul line to pin deck, with a margin (RendererTests checks).

    /// Straight behind the bowler on the lane's centre line, 15 ft back, 4.5 ft high; 1280×720.
    public static let behindBowler720p = LaneCamera(
        position: LaneCoordinate(x: LaneGeometry.widthFt / 2, y: 4.5, z: -15),
        yawDegrees: 0, pitchDegrees: 9, focalPx: 2300, width: 1280, height: 720)

    /// A "real" camera angle: 2.5 ft to the right of the lane's right edge, 18 ft back, 5 ft high,
    /// turned 6° toward the lane, so the lane is a skewed trapezoid; 1280×720.
    public static let sideAngle720p = LaneCamera(
        position: LaneCoordinate(x: -2.5, y: 5, z: -18),
        yawDegrees: 6, pitchDegrees: 8.5, focalPx: 2300, width: 1280, height: 720)

    /// A phone on a tripod behind the bowler, zoomed to frame the lane (about 46° across), 15 ft
    /// back, 4.5 ft high; 1280×720. The ball at the pins is about 7 px in radius, under seed 003's
    /// minimum blob area scaled to 720p.
    public static let behindBowlerPhone720p = LaneCamera(
        position: LaneCoordinate(x: LaneGeometry.widthFt / 2, y: 4.5, z: -15),
        yawDegrees: 0, pitchDegrees: 7, focalPx: 1500, width: 1280, height: 720)

    /// The same phone unzoomed (its main camera, about 65° across): the lane fills a small part of
    /// the frame, the ball at the pins is under 5 px in radius and a board there about 1.2 px.
    public static let behindBowlerWidePhone720p = LaneCamera(
        position: LaneCoordinate(x: LaneGeometry.widthFt / 2, y: 4.5, z: -15),
        yawDegrees: 0, pitchDegrees: 7, focalPx: 1000, width: 1280, height: 720)

    /// The behind-the-bowler view at 1920×1080 (same field of view as the 720p one).
    public static let behindBowler1080p = LaneCamera(
        position: LaneCoordinate(x: LaneGeometry.widthFt / 2, y: 4.5, z: -15),
        yawDegrees: 0, pitchDegrees: 9, focalPx: 3450, width: 1920, height: 1080)
}
