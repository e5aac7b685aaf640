import Foundation

/// A weak-perspective camera around a standing player: body coordinates (torso lengths; x towards
/// the player's own right, y up, z the way they face, origin at the hip midpoint) to frame pixels.
///
/// `azimuthDegrees` is where the camera stands: 0 behind the player (their right is towards larger
/// x in the image), 180 in front of them (mirrored), in between to one side. Depth does not change
/// the scale: a player moves little towards or away from a camera 10–20 m off.
public struct PoseCamera: Sendable {
    public var azimuthDegrees: Double
    /// The image turned by this much (a phone held not quite level).
    public var rollDegrees: Double
    /// Torso length in pixels (how far the camera is).
    public var torsoPixels: Double
    /// Where the hip midpoint's rest position lands, pixels.
    public var centerX: Double
    public var centerY: Double

    public init(azimuthDegrees: Double, rollDegrees: Double, torsoPixels: Double, centerX: Double, centerY: Double) {
        (self.azimuthDegrees, self.rollDegrees, self.torsoPixels) = (azimuthDegrees, rollDegrees, torsoPixels)
        (self.centerX, self.centerY) = (centerX, centerY)
    }

    /// The image of `point` (body coordinates, already moved by the player's own displacement).
    public func project(_ point: SIMD3<Double>) -> (x: Double, y: Double) {
        let a = azimuthDegrees * .pi / 180, roll = rollDegrees * .pi / 180
        // Horizontal: the body's right axis seen from the camera's side; vertical: up is smaller y.
        let u = point.x * cos(a) + point.z * sin(a)
        let v = -point.y
        let x = u * cos(roll) - v * sin(roll), y = u * sin(roll) + v * cos(roll)
        return (centerX + torsoPixels * x, centerY + torsoPixels * y)
    }
}
