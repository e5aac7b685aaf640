/// An axis-aligned box in source-frame pixels: (x1, y1) top-left, (x2, y2) bottom-right.
public struct BoundingBox: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var x1: Double, y1: Double, x2: Double, y2: Double

    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    public var width: Double { x2 - x1 }
    public var height: Double { y2 - y1 }
    public var area: Double { max(0, width) * max(0, height) }
    public var centerX: Double { (x1 + x2) / 2 }
    public var centerY: Double { (y1 + y2) / 2 }

    /// Intersection over union; 0 when the union is empty.
    public func iou(_ other: BoundingBox) -> Double {
        let w = min(x2, other.x2) - max(x1, other.x1), h = min(y2, other.y2) - max(y1, other.y1)
        let intersection = max(w, 0) * max(h, 0)
        let union = area + other.area - intersection
        return union > 0 ? intersection / union : 0
    }

    /// The same box moved by (dx, dy).
    public func offsetBy(dx: Double, dy: Double) -> BoundingBox {
        BoundingBox(x1: x1 + dx, y1: y1 + dy, x2: x2 + dx, y2: y2 + dy)
    }

    public var description: String {
        func f(_ v: Double) -> String { String((v * 100).rounded() / 100) }
        return "[\(f(x1)), \(f(y1)), \(f(x2)), \(f(y2))]"
    }
}
