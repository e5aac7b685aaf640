import Foundation

/// What the scene holds, worked out from its geometry (not by the scorer under test).
public struct SceneTruth: Sendable, Equatable {
    public struct Arrow: Sendable, Equatable {
        /// The impact as a result gives it: face radii, x right, y down (the scene's own
        /// geometry, `SceneArrow`, is y up).
        public var x: Double
        public var y: Double
        public var pixelX: Double
        public var pixelY: Double
        public var score: Int
        public var isX: Bool
    }

    public var centerX: Double
    public var centerY: Double
    /// √(area of the face's image / π).
    public var radiusPx: Double
    /// Sorted clockwise from 12 o'clock, as a scored end is.
    public var arrows: [Arrow]
    public var total: Int
    public var xCount: Int
    public var tens: Int

    /// World Archery's rule written out once more: ring k reaches (11 − k)/10 face radii, the X
    /// ring 0.05, and an arrow touching a line (centre ≤ edge + its radius) scores the higher ring.
    public static func score(distance: Double, arrowRadius: Double) -> (Int, Bool) {
        let ring = Int(((distance - arrowRadius) * 10).rounded(.up))
        let score = distance - arrowRadius <= 0.1 ? 10 : (ring > 10 ? 0 : 11 - ring)
        return (score, distance - arrowRadius <= 0.05)
    }

    init(scene: ArcheryScene) {
        let camera = scene.camera
        let centre = camera.project(SIMD3(0, 0, 0))
        centerX = centre?.x ?? .nan
        centerY = centre?.y ?? .nan
        var area = 0.0
        var previous = camera.project(SIMD3(1, 0, 0))
        for step in 1...360 {
            let a = Double(step) * .pi / 180
            let p = camera.project(SIMD3(cos(a), sin(a), 0))
            if let p, let q = previous { area += q.x * p.y - p.x * q.y }
            previous = p
        }
        radiusPx = (abs(area) / 2 / .pi).squareRoot()
        arrows = scene.arrows.map { a in
            let p = camera.project(SIMD3(a.x, a.y, 0))
            let (score, isX) = Self.score(distance: (a.x * a.x + a.y * a.y).squareRoot(), arrowRadius: scene.arrowRadius)
            return Arrow(x: a.x, y: -a.y, pixelX: p?.x ?? .nan, pixelY: p?.y ?? .nan, score: score, isX: isX)
        }.sorted { Self.clock($0.x, $0.y) < Self.clock($1.x, $1.y) }
        total = arrows.reduce(0) { $0 + $1.score }
        xCount = arrows.filter(\.isX).count
        tens = arrows.filter { $0.score == 10 }.count
    }

    /// 0° = 12 o'clock (−y), clockwise.
    static func clock(_ x: Double, _ y: Double) -> Double {
        let d = atan2(x, -y) * 180 / .pi
        return d < 0 ? d + 360 : d
    }
}
