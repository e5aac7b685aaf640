import Foundation
import SportMath

/// An RGB24 photo of a scene.
public struct RenderedPhoto: Sendable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]
    public var truth: SceneTruth
}

/// Draws a World Archery 10-ring face through a pinhole camera: each pixel's ray meets the face's
/// plane (a homography), the zone and its dividing lines give the colour (lines inside the higher
/// ring, black; white between 4 and 3 inside the black zone); then holes, shafts (a quad whose width
/// follows the depth, so it narrows toward the face) and fletchings; then light and noise.
/// One sample per pixel: edges are crisp and the image is the same on every machine.
public enum ArcheryRenderer {
    public static func render(_ scene: ArcheryScene) -> RenderedPhoto {
        let camera = scene.camera
        let width = camera.width, height = camera.height
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let h = camera.imageToFace
        let line = scene.lineWidthMm * scene.perMm
        let holes = scene.arrows.filter(\.isHole)
        // A hole is a little wider than the shaft (the paper tears).
        let holeRadius = 1.5 * scene.arrowRadius
        let zones: [ArcheryColor] = [.gold, .gold, .red, .red, .blue, .blue, .black, .black, .white, .white]
        for y in 0..<height {
            for x in 0..<width {
                let fx = Double(x), fy = Double(y)
                let w = h[6] * fx + h[7] * fy + h[8]
                var colour = scene.background
                if abs(w) > 1e-12 {
                    let u = (h[0] * fx + h[1] * fy + h[2]) / w, v = (h[3] * fx + h[4] * fy + h[5]) / w
                    let rho = (u * u + v * v).squareRoot()
                    if rho <= 1 {
                        let ring = min(9, Int(rho * 10))
                        colour = zones[ring]
                        // The line at the ring's outer edge, and the X ring's.
                        let edge = Double(ring + 1) / 10
                        if edge - rho <= line || (rho <= 0.05 && 0.05 - rho <= line) {
                            colour = abs(edge - 0.7) < 1e-9 ? .white : .black
                        }
                        for hole in holes where (u - hole.x) * (u - hole.x) + (v - hole.y) * (v - hole.y) <= holeRadius * holeRadius {
                            colour = .hole
                        }
                    }
                }
                let o = (y * width + x) * 3
                pixels[o] = colour.r; pixels[o + 1] = colour.g; pixels[o + 2] = colour.b
            }
        }
        // Far arrows first, so a nearer one covers them.
        let standing = scene.arrows.filter { !$0.isHole }
            .sorted { (camera.project(SIMD3($0.x, $0.y, 0))?.depth ?? 0) > (camera.project(SIMD3($1.x, $1.y, 0))?.depth ?? 0) }
        for arrow in standing { drawArrow(arrow, scene: scene, into: &pixels) }
        if let o = scene.occluder {
            fillQuad([(Double(o.x), Double(o.y)), (Double(o.x + o.width), Double(o.y)), (Double(o.x + o.width), Double(o.y + o.height)),
                      (Double(o.x), Double(o.y + o.height))], colour: ArcheryColor(70, 60, 90), width: width, height: height, into: &pixels)
        }
        var random = SeededRandom(seed: scene.seed)
        for y in 0..<height {
            let light = scene.gain
            for x in 0..<width {
                let shade = light * (1 + scene.gradient * (Double(x) / Double(max(1, width - 1)) - 0.5))
                let o = (y * width + x) * 3
                for c in 0..<3 {
                    let value = Double(pixels[o + c]) * shade + Double(random.offset(amplitude: scene.noise))
                    pixels[o + c] = UInt8(max(0, min(255, value.rounded())))
                }
            }
        }
        return RenderedPhoto(width: width, height: height, pixels: pixels, truth: SceneTruth(scene: scene))
    }

    static func drawArrow(_ arrow: SceneArrow, scene: ArcheryScene, into pixels: inout [UInt8]) {
        let camera = scene.camera
        let base = SIMD3(arrow.x, arrow.y, 0), axis = arrow.direction
        let radius = scene.arrowRadius
        // The shaft, then the fletching over its last part (three vanes seen as one, 4 shafts wide).
        drawSegment(from: base, to: base + arrow.length * axis, halfWidth: radius, colour: arrow.shaft, camera: camera, into: &pixels)
        let vane = min(0.12, 0.4 * arrow.length)
        drawSegment(from: base + (arrow.length - vane - 0.02) * axis, to: base + (arrow.length - 0.02) * axis, halfWidth: 4 * radius,
                    colour: arrow.fletching, camera: camera, into: &pixels)
    }

    /// A rod of world half-width `halfWidth` from `a` to `b`, as the quad its silhouette makes.
    static func drawSegment(from a: SIMD3<Double>, to b: SIMD3<Double>, halfWidth: Double, colour: ArcheryColor, camera: FaceCamera,
                            into pixels: inout [UInt8]) {
        guard let p = camera.project(a), let q = camera.project(b) else { return }
        let dx = q.x - p.x, dy = q.y - p.y
        let length = (dx * dx + dy * dy).squareRoot()
        // Seen end on: a disc of the nearer end's size.
        let wp = camera.focalPx * halfWidth / p.depth, wq = camera.focalPx * halfWidth / q.depth
        let (nx, ny) = length > 1e-9 ? (-dy / length, dx / length) : (1.0, 0.0)
        if length < max(wp, wq) {
            let r = max(wp, wq)
            fillQuad([(q.x - r, q.y - r), (q.x + r, q.y - r), (q.x + r, q.y + r), (q.x - r, q.y + r)], colour: colour,
                     width: camera.width, height: camera.height, into: &pixels)
            return
        }
        fillQuad([(p.x + nx * wp, p.y + ny * wp), (q.x + nx * wq, q.y + ny * wq), (q.x - nx * wq, q.y - ny * wq), (p.x - nx * wp, p.y - ny * wp)],
                 colour: colour, width: camera.width, height: camera.height, into: &pixels)
    }

    /// Fills a convex quad: pixels whose centre is inside.
    static func fillQuad(_ corners: [(Double, Double)], colour: ArcheryColor, width: Int, height: Int, into pixels: inout [UInt8]) {
        let ys = corners.map(\.1), xs = corners.map(\.0)
        guard let minY = ys.min(), let maxY = ys.max(), let minX = xs.min(), let maxX = xs.max() else { return }
        let top = max(0, Int(minY.rounded(.up))), bottom = min(height - 1, Int(maxY.rounded(.down)))
        let left = max(0, Int(minX.rounded(.up))), right = min(width - 1, Int(maxX.rounded(.down)))
        guard top <= bottom, left <= right else { return }
        // Orientation of the corners, so "inside" is the same side of every edge.
        var area = 0.0
        for i in corners.indices {
            let a = corners[i], b = corners[(i + 1) % corners.count]
            area += a.0 * b.1 - b.0 * a.1
        }
        let sign = area >= 0 ? 1.0 : -1.0
        for y in top...bottom {
            for x in left...right {
                let px = Double(x), py = Double(y)
                var inside = true
                for i in corners.indices {
                    let a = corners[i], b = corners[(i + 1) % corners.count]
                    if sign * ((b.0 - a.0) * (py - a.1) - (b.1 - a.1) * (px - a.0)) < 0 { inside = false; break }
                }
                if inside {
                    let o = (y * width + x) * 3
                    pixels[o] = colour.r; pixels[o + 1] = colour.g; pixels[o + 2] = colour.b
                }
            }
        }
    }
}
