/// A point on a canvas: pixels of a PNG, points (1/72 in) of a PDF page, or a video's own pixels
/// inside a transform that maps them there.
public struct Point: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) { (self.x, self.y) = (x, y) }
}

/// An axis-aligned rectangle, origin at its top left.
public struct Rect: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) { (self.x, self.y, self.width, self.height) = (x, y, width, height) }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// The part of both; an empty rectangle where they do not meet.
    public func intersection(_ other: Rect) -> Rect {
        let x1 = max(x, other.x), y1 = max(y, other.y), x2 = min(maxX, other.maxX), y2 = min(maxY, other.maxY)
        return Rect(x: x1, y: y1, width: max(0, x2 - x1), height: max(0, y2 - y1))
    }

    /// Whether the two share some area (touching edges do not count).
    public func overlaps(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// Whether `other` lies inside this one, give or take `tolerance`.
    public func contains(_ other: Rect, tolerance: Double = 0.01) -> Bool {
        other.x >= x - tolerance && other.y >= y - tolerance && other.maxX <= maxX + tolerance && other.maxY <= maxY + tolerance
    }
}

/// A colour, opaque unless `alpha` says otherwise. Given as 8-bit values so that what a PNG shows
/// is exactly the colour asked for (cairo keeps 16 bits a channel; 8 → 16 → 8 loses nothing).
public struct Colour: Sendable, Equatable {
    public let red: UInt8
    public let green: UInt8
    public let blue: UInt8
    public let alpha: Double

    /// `0xRRGGBB`.
    public init(_ hex: UInt32, alpha: Double = 1) {
        red = UInt8((hex >> 16) & 0xff)
        green = UInt8((hex >> 8) & 0xff)
        blue = UInt8(hex & 0xff)
        self.alpha = alpha
    }

    public func with(alpha: Double) -> Colour {
        Colour((UInt32(red) << 16) | (UInt32(green) << 8) | UInt32(blue), alpha: alpha)
    }

    public static let white = Colour(0xffffff)
    public static let black = Colour(0x000000)
    public static let ink = Colour(0x1d2433)
    public static let muted = Colour(0x667085)
    public static let rule = Colour(0xd0d5dd)
    public static let panel = Colour(0xf2f4f7)
    /// One colour per shot or swing, in turn: strong enough to read over a video frame.
    public static let series: [Colour] = [Colour(0xff3b30), Colour(0x00c2ff), Colour(0xffcc00), Colour(0x34c759),
                                          Colour(0xff2dd4), Colour(0xff9500)]
    public static func series(_ index: Int) -> Colour { series[index % series.count] }
}

/// Type for labels and reports: DejaVu Sans (Debian's fonts-dejavu-core), regular or bold.
public struct Font: Sendable, Equatable {
    public var size: Double
    public var bold: Bool
    public init(size: Double, bold: Bool = false) { (self.size, self.bold) = (size, bold) }
    public static let family = "DejaVu Sans"
}

/// Where a text's `at` point is along its baseline.
public enum TextAnchor: Sendable {
    case start, middle, end
}
