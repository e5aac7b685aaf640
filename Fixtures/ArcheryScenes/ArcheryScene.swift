/// A target face photographed with arrows in it, and what a scorer should find.
public struct ArcheryScene: Sendable, Equatable {
    public var camera: FaceCamera
    public var arrows: [SceneArrow]
    public var faceDiameterCm: Double
    public var arrowDiameterMm: Double
    /// Dividing lines' width.
    public var lineWidthMm: Double
    /// Light: every channel × gain, × (1 + gradient · x across the image from −0.5 to 0.5).
    public var gain: Double
    public var gradient: Double
    /// Each channel of each pixel moves by up to ± this much.
    public var noise: Int
    public var seed: UInt64
    public var background: ArcheryColor
    /// Something in front of the face (a person walking past): a rectangle in image pixels.
    public var occluder: (x: Int, y: Int, width: Int, height: Int)?

    public init(camera: FaceCamera, arrows: [SceneArrow], faceDiameterCm: Double = 122, arrowDiameterMm: Double = 5.5,
                lineWidthMm: Double = 2, gain: Double = 1, gradient: Double = 0, noise: Int = 6, seed: UInt64 = 1,
                background: ArcheryColor = .boss, occluder: (x: Int, y: Int, width: Int, height: Int)? = nil) {
        (self.camera, self.arrows, self.faceDiameterCm, self.arrowDiameterMm) = (camera, arrows, faceDiameterCm, arrowDiameterMm)
        (self.lineWidthMm, self.gain, self.gradient, self.noise, self.seed) = (lineWidthMm, gain, gradient, noise, seed)
        (self.background, self.occluder) = (background, occluder)
    }

    public static func == (a: ArcheryScene, b: ArcheryScene) -> Bool {
        a.camera == b.camera && a.arrows == b.arrows && a.faceDiameterCm == b.faceDiameterCm && a.arrowDiameterMm == b.arrowDiameterMm
            && a.lineWidthMm == b.lineWidthMm && a.gain == b.gain && a.gradient == b.gradient && a.noise == b.noise && a.seed == b.seed
            && a.background == b.background && a.occluder?.x == b.occluder?.x && a.occluder?.y == b.occluder?.y
            && a.occluder?.width == b.occluder?.width && a.occluder?.height == b.occluder?.height
    }

    /// Face radii per millimetre.
    var perMm: Double { 1 / (faceDiameterCm * 5) }
    /// The arrow's radius in face radii.
    public var arrowRadius: Double { arrowDiameterMm / 2 * perMm }
}
