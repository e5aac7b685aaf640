/// One sampled frame of one tracked player.
public struct PoseFrame: Sendable {
    public var time: Double
    public var landmarks: [Landmark]
    public init(time: Double, landmarks: [Landmark]) { (self.time, self.landmarks) = (time, landmarks) }
}

/// One body landmark in frame pixels (BlazePose's 33, in BlazePose's order).
public struct Landmark: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var visibility: Double
    public init(x: Double, y: Double, visibility: Double) { (self.x, self.y, self.visibility) = (x, y, visibility) }
}
