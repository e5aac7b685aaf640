/// An impact found in the photo, before scoring: image pixels, a box, and how sure the finder is.
struct ArrowImpact: Sendable, Equatable {
    var pixelX: Double
    var pixelY: Double
    var box: BoundingBox
    var confidence: Double
    /// A straight shaft was seen, its far end (image pixels) at `tailX`, `tailY`; false for a round
    /// group (a hole, or an arrow seen end on).
    var isShaft = false
    var tailX: Double?
    var tailY: Double?
    /// Parted from a group holding several crossing shafts (`ShaftSplitter`).
    var crossesAnother = false
    /// The shaft's pixels lie alike about its middle, so which end is the impact was a close call.
    var endsAlike = false
    /// A shaft starting at the white zone's inner edge and running outward, with no arrow found on
    /// its line further in: it may be the shadow of an arrow that was not found (`ArrowCandidates`).
    var mayBeShadow = false
}

extension ArrowImpact {
    /// The same shaft the other way round: its tail (`tailX`, `tailY`) is the impact, and which end
    /// went in is no longer a close call (something other than its shape said so).
    func turned(tailX: Double, tailY: Double) -> ArrowImpact {
        var turned = self
        (turned.pixelX, turned.pixelY, turned.tailX, turned.tailY) = (tailX, tailY, pixelX, pixelY)
        turned.endsAlike = false
        return turned
    }
}
