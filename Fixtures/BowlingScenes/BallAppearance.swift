import Foundation

/// Where one ball is in one frame: its place on the lane and the discs drawn for it.
public struct BallAppearance: Equatable, Sendable, Codable {
    public var shotIndex: Int
    public var frameIndex: Int
    /// Seconds from the clip's start.
    public var time: Double
    public var distanceFt: Double
    public var board: Double
    /// Projection of the ball's 3D centre (4.25 in above the lane, lower in a gutter).
    public var centre: ImagePoint
    /// focal × R / depth.
    public var radiusPx: Double
    /// Projection of the lane point under the ball (where it touches the lane; the gutter floor in a
    /// gutter): what an analysis should map through the calibration, rather than the disc's centre.
    public var contactPoint: ImagePoint
    public var markerCentre: ImagePoint
    public var markerRadiusPx: Double
    /// Counterclockwise in the image, radians, not wrapped.
    public var markerAngle: Double

    /// The marker disc is 0.2 × the ball's radius, its centre 0.6 × the radius from the ball's centre.
    static let markerRadiusFraction = 0.2
    static let markerOffsetFraction = 0.6

    /// The ball of `path` at `time`, or nil when it is not on screen then (before release, in the pit).
    static func of(path: BallPath, shotIndex: Int, releaseTime: Double, frameIndex: Int, time: Double,
                   camera: LaneCamera) -> BallAppearance? {
        let sinceRelease = time - releaseTime
        // Release on a frame time may land a rounding error before it.
        guard sinceRelease >= -1e-9 else { return nil }
        let seconds = max(0, sinceRelease)
        let distance = path.distance(afterRelease: seconds)
        guard distance <= path.lastDrawnDistanceFt,
              path.speed(afterRelease: seconds) > 0 else { return nil }
        let centre3D = path.centre(atDistance: distance)
        var floor = centre3D
        floor.y -= LaneGeometry.ballRadiusFt
        guard let centre = camera.project(centre3D), let contact = camera.project(floor) else { return nil }
        let radius = camera.projectedRadius(ofSphereAt: centre3D, radiusFt: LaneGeometry.ballRadiusFt)
        let angle = path.markerAngle(afterRelease: seconds)
        let offset = markerOffsetFraction * radius
        // Image y grows downward, so counterclockwise on screen subtracts the sine.
        let marker = ImagePoint(x: centre.x + offset * cos(angle), y: centre.y - offset * sin(angle))
        return BallAppearance(shotIndex: shotIndex, frameIndex: frameIndex, time: time, distanceFt: distance,
                              board: path.board(atDistance: distance), centre: centre, radiusPx: radius, contactPoint: contact,
                              markerCentre: marker, markerRadiusPx: markerRadiusFraction * radius,
                              markerAngle: angle)
    }
}
