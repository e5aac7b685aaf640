/// An sRGB colour as the renderer paints it.
public struct ArcheryColor: Sendable, Equatable {
    public var r, g, b: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { (self.r, self.g, self.b) = (r, g, b) }

    // A World Archery face's colours, as a printed face photographs in daylight.
    public static let gold = ArcheryColor(250, 210, 25)
    public static let red = ArcheryColor(225, 35, 40)
    public static let blue = ArcheryColor(20, 160, 220)
    public static let black = ArcheryColor(35, 35, 38)
    public static let white = ArcheryColor(245, 244, 238)
    /// A straw boss.
    public static let boss = ArcheryColor(140, 122, 95)
    /// An aluminium shaft.
    public static let silver = ArcheryColor(150, 152, 160)
    public static let hole = ArcheryColor(28, 24, 22)
}
