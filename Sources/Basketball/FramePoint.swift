/// A point in frame pixels.
public struct FramePoint: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { (self.x, self.y) = (x, y) }
}
