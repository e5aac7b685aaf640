/// BlazePose's two alignment points for one person (the model's outputs 33 and 34 after the 33
/// body landmarks): the hips' centre and a point above the head whose distance from it is the
/// body's half-size. MediaPipe crops the next frame around these instead of running its person
/// detector again; Reelwork does the same (`PoseCrop(following:)`).
public struct PoseAlignment: Sendable, Equatable {
    public var centreX: Double, centreY: Double
    public var scaleX: Double, scaleY: Double

    public init(centreX: Double, centreY: Double, scaleX: Double, scaleY: Double) {
        self.centreX = centreX
        self.centreY = centreY
        self.scaleX = scaleX
        self.scaleY = scaleY
    }

    /// Hips' centre to the scale point, pixels: about half the standing body's height.
    public var bodyRadius: Double {
        ((scaleX - centreX) * (scaleX - centreX) + (scaleY - centreY) * (scaleY - centreY)).squareRoot()
    }

    /// Pixels between this hips' centre and `other`'s.
    public func centreDistance(to other: PoseAlignment) -> Double {
        ((other.centreX - centreX) * (other.centreX - centreX) + (other.centreY - centreY) * (other.centreY - centreY)).squareRoot()
    }

    /// The fastest a body's centre moves, in body radii per second: a sprinter's 10 m/s over a
    /// radius of about 0.9 m is 11; tennis players stay under 7.
    public static let maxCentreSpeed = 11.0
    /// Landmark jitter and a crop's rounding move the centre by a few hundredths of a radius between
    /// frames of a still person; a step under this share of the radius is never a jump.
    public static let minJump = 0.25
    /// The body's size cannot change by more than this factor between samples (walking towards
    /// the camera changes it by a few per cent a second).
    public static let maxScaleChange = 1.5

    /// Whether `next`, found `seconds` after this, can be the same body: its centre moved no
    /// faster than a body can, its size about the same. A crop that slid onto another person or
    /// onto nothing gives landmarks that fail this, and the detector looks again.
    public func isPlausible(next: PoseAlignment, after seconds: Double) -> Bool {
        let radius = bodyRadius, nextRadius = next.bodyRadius
        guard radius.isFinite, nextRadius.isFinite, radius > 1, nextRadius > 1,
              nextRadius / radius <= Self.maxScaleChange, radius / nextRadius <= Self.maxScaleChange else { return false }
        return centreDistance(to: next) <= radius * max(Self.minJump, Self.maxCentreSpeed * max(0, seconds))
    }
}
