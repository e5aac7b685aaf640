/// An impact found in the photo, before scoring: image pixels, a box, and how sure the finder is.
struct ArrowImpact: Sendable, Equatable {
    var pixelX: Double
    var pixelY: Double
    var box: BoundingBox
    var confidence: Double
}
