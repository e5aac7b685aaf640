import Foundation

/// A pinhole camera looking at a target face. World coordinates are in face radii: the face lies
/// in the plane z = 0 with its centre at the origin, x right, y up, +z toward the archer.
/// The camera sits `distance` from `aim` in the direction given by yaw (toward +x) and pitch
/// (above), looks at `aim`, and has no roll.
public struct FaceCamera: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var focalPx: Double
    public var yawDegrees: Double
    public var pitchDegrees: Double
    public var distance: Double
    /// The point looked at, in face coordinates on the face's plane.
    public var aimX: Double
    public var aimY: Double

    public init(width: Int, height: Int, focalPx: Double, yawDegrees: Double = 0, pitchDegrees: Double = 0, distance: Double,
                aimX: Double = 0, aimY: Double = 0) {
        (self.width, self.height, self.focalPx) = (width, height, focalPx)
        (self.yawDegrees, self.pitchDegrees, self.distance, self.aimX, self.aimY) = (yawDegrees, pitchDegrees, distance, aimX, aimY)
    }

    /// A camera that shows the face `radiusPx` pixels across (straight on) from `distance` radii away.
    public static func framing(width: Int, height: Int, radiusPx: Double, distance: Double = 6,
                               yawDegrees: Double = 0, pitchDegrees: Double = 0) -> FaceCamera {
        FaceCamera(width: width, height: height, focalPx: radiusPx * distance, yawDegrees: yawDegrees, pitchDegrees: pitchDegrees,
                   distance: distance)
    }

    var position: SIMD3<Double> {
        let yaw = yawDegrees * .pi / 180, pitch = pitchDegrees * .pi / 180
        return SIMD3(aimX, aimY, 0) + distance * SIMD3(sin(yaw) * cos(pitch), sin(pitch), cos(yaw) * cos(pitch))
    }

    var axes: (forward: SIMD3<Double>, right: SIMD3<Double>, up: SIMD3<Double>) {
        let forward = normalize(SIMD3(aimX, aimY, 0) - position)
        let right = normalize(cross(forward, SIMD3(0, 1, 0)))
        return (forward, right, cross(right, forward))
    }

    /// Pixel centres sit on integer coordinates.
    var principal: (x: Double, y: Double) { (Double(width - 1) / 2, Double(height - 1) / 2) }

    /// The image point of a world point, and its depth; nil behind the camera.
    public func project(_ p: SIMD3<Double>) -> (x: Double, y: Double, depth: Double)? {
        let (f, r, u) = axes
        let d = p - position
        let depth = dot(d, f)
        guard depth > 1e-9 else { return nil }
        return (principal.x + focalPx * dot(d, r) / depth, principal.y - focalPx * dot(d, u) / depth, depth)
    }

    /// Image pixels → face-plane coordinates, as a row-major 3 × 3 homography.
    var imageToFace: [Double] {
        // A pixel's ray: position + t · (f + a·r − b·u), a = (x − cx)/F, b = (y − cy)/F; it meets z = 0
        // where t = −position.z / ray.z. Written as a homography in (x, y, 1).
        let (f, r, u) = axes, c = position, (cx, cy) = principal, F = focalPx
        // ray = M · (x, y, 1) with columns r/F, −u/F, f − cx·r/F + cy·u/F.
        let col0 = r / F, col1 = -u / F, col2 = f - cx * r / F + cy * u / F
        // point = c + t·ray with t = −c.z / ray.z  ⇒  point·ray.z ∝ c·ray.z − c.z·ray (homogeneous).
        func row(_ k: Int) -> [Double] {
            [c[k] * col0.z - c.z * col0[k], c[k] * col1.z - c.z * col1[k], c[k] * col2.z - c.z * col2[k]]
        }
        return row(0) + row(1) + [col0.z, col1.z, col2.z]
    }
}

func normalize(_ v: SIMD3<Double>) -> SIMD3<Double> { v / (v * v).sum().squareRoot() }
func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
