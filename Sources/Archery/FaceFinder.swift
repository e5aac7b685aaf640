import Foundation
import ReelworkCore
import SportMath

/// The face in a working image: rings traced, ellipses fitted, one homography to all of them,
/// its rotation fixed so the face's "up" looks straight up in the photo at the centre.
enum FaceFinder {
    /// At least this many of the five boundaries, each with points on this share of the rays.
    static let minimumRings = 3
    static let minimumRaysPerRing = 0.2
    /// The points a boundary needs to count: `minimumRaysPerRing` of the tracer's rays.
    static let minimumPointsPerRing = minimumRaysPerRing * Double(RingBoundaryTracer.rayCount)
    /// A fit worse than this (face radii, RMS) is not a target face's rings.
    static let maximumFitError = 0.02
    static let blueBlackBoundary = 2
    static let outerBoundary = 4

    struct Found: Sendable {
        var face: TargetFace
        /// Working pixels → face coordinates (y up, rotation fixed): the finders' own frame.
        /// `face.homography` is the result's, y down.
        var workingToFace: Homography
        var faceToWorking: Homography
        var radiusWorkingPx: Double
    }

    static func find(in image: WorkingImage) throws -> Found {
        guard let trace = RingBoundaryTracer.trace(image) else { throw noFace() }
        // Each boundary as an ellipse: drops the points an arrow or a fletching put there.
        var ringPoints = [FaceFitter.RingPoint]()
        var initial: (fit: ConicFit, radius: Double)?
        var bluePoints = [FaceFitter.RingPoint](), outerPoints = [FaceFitter.RingPoint]()
        for (k, points) in trace.points.enumerated() {
            guard Double(points.count) >= minimumPointsPerRing,
                  let fit = ConicFit.fit(points) else { continue }
            let radius = 0.2 * Double(k + 1)
            let ringPointsOfFit = fit.inliers.map { FaceFitter.RingPoint(x: $0.x, y: $0.y, radius: radius, ring: k) }
            switch k {
            case blueBlackBoundary:
                // Traced at the inner edge of the line between 5 and 4, which is black and so
                // merges with the black zone: counted, not fitted.
                bluePoints = ringPointsOfFit
            case outerBoundary:
                // The white zone's edge is where white ends, and a face printed on white paper
                // (a margin, the sheet's corners) or hung before a pale wall or sky ends white
                // somewhere else: used only where it agrees with the inner rings' fit.
                outerPoints = ringPointsOfFit
            default:
                ringPoints += ringPointsOfFit
                // The largest inner boundary gives the best first guess of the face's tilt.
                if fit.inliers.count >= 3 * ConicFit.minimumPoints { initial = (fit, radius) }
            }
        }
        guard let (ellipse, ellipseRadius) = initial else { throw noFace() }
        // First guess, an affine map: face (u, v) ↦ centre + u·a1/r·axis1 + v·a2/r·axis2.
        let e1 = ellipse.axis1, e2 = (x: -ellipse.axis1.y, y: ellipse.axis1.x)
        let s1 = ellipse.semiAxis1 / ellipseRadius, s2 = ellipse.semiAxis2 / ellipseRadius
        let affine = Homography(h: [e1.x * s1, e2.x * s2, ellipse.centerX, e1.y * s1, e2.y * s2, ellipse.centerY, 0, 0, 1])
        guard let guess = affine.inverse,
              var fit = FaceFitter.fit(points: ringPoints, initial: guess, centerX: trace.seedX, centerY: trace.seedY,
                                       scale: trace.radiusGuess) else { throw noFace() }
        // The points of a boundary that agree with the fit (within a line's width and a pixel or two).
        let lineAllowance = 0.012 + 2 / max(1, trace.radiusGuess)
        func agreeing(_ points: [FaceFitter.RingPoint], _ map: Homography) -> [FaceFitter.RingPoint] {
            points.filter { p in
                guard let q = map.apply(p.x, p.y) else { return false }
                return abs((q.x * q.x + q.y * q.y).squareRoot() - p.radius) <= lineAllowance
            }
        }
        // The face's outer edge where it was traced: the widest ring pins the tilt best.
        let outerAgreeing = agreeing(outerPoints, fit.map)
        if Double(outerAgreeing.count) >= minimumPointsPerRing,
           let refit = FaceFitter.fit(points: fit.inliers + outerAgreeing, initial: fit.map, centerX: trace.seedX, centerY: trace.seedY,
                                      scale: trace.radiusGuess) {
            fit = refit
        }
        var perRing = [Int](repeating: 0, count: RingBoundaryTracer.boundaryCount)
        for p in fit.inliers { perRing[p.ring] += 1 }
        perRing[blueBlackBoundary] = agreeing(bluePoints, fit.map).count
        let ringsFound = perRing.filter { Double($0) >= minimumPointsPerRing }.count
        guard ringsFound >= minimumRings, let oriented = orient(fit.map), let inverse = oriented.inverse,
              let centre = inverse.apply(0, 0) else { throw noFace() }
        let radius = projectedRadius(inverse)
        guard radius > 0, fit.rmsPx / radius <= maximumFitError else { throw noFace() }

        // The whole face must be in the photo: a cut-off face scores arrows against rings guessed
        // beyond the edge.
        for step in 0..<72 {
            let angle = Double(step) * .pi / 36
            guard let p = inverse.apply(cos(angle), sin(angle)),
                  p.x >= 0, p.y >= 0, p.x <= Double(image.width - 1), p.y <= Double(image.height - 1) else {
                throw ReelworkError.needsPerson(
                    "The target face is cut off by the photo's edge: photograph the whole face, with a margin around it, from within 35° of straight on")
            }
        }
        let toSource = image.toSource
        guard let sourceToWorking = toSource.inverse,
              let sourceToFace = Self.yDown.after(oriented).after(sourceToWorking).normalized else { throw noFace() }
        let c = image.sourcePoint(centre.x, centre.y)
        let face = TargetFace(centerX: c.x, centerY: c.y, radiusPx: radius * Double(image.scale), ringsFound: ringsFound,
                              homography: sourceToFace.h, fitErrorPx: fit.rmsPx * Double(image.scale))
        return Found(face: face, workingToFace: oriented, faceToWorking: inverse, radiusWorkingPx: radius)
    }

    static func noFace() -> ReelworkError { .needsPerson(ArcheryAnalyzer.noFaceAdvice) }

    /// Face coordinates with y up → the result's, y down (seed 002 computes `(location.y −
    /// center.y) / radius` in screen coordinates).
    static let yDown = Homography(h: [1, 0, 0, 0, -1, 0, 0, 0, 1])

    /// Rotates (and if need be mirrors) the face coordinates so that a step straight up in the
    /// image from the centre is +y on the face, and a step right is toward +x.
    static func orient(_ map: Homography) -> Homography? {
        guard let inverse = map.inverse, let centre = inverse.apply(0, 0) else { return nil }
        let step = 1.0
        guard let up = map.apply(centre.x, centre.y - step), let right = map.apply(centre.x + step, centre.y) else { return nil }
        var m = map
        // Counter-clockwise from `right` to `up` (y up) is the handedness we want.
        if right.x * up.y - right.y * up.x < 0 { m = Homography(h: [-1, 0, 0, 0, 1, 0, 0, 0, 1]).after(m) }
        guard let upAgain = m.apply(centre.x, centre.y - step) else { return nil }
        let turn = .pi / 2 - atan2(upAgain.y, upAgain.x)
        let rotation = Homography(h: [cos(turn), -sin(turn), 0, sin(turn), cos(turn), 0, 0, 0, 1])
        return rotation.after(m).normalized
    }

    /// √(area of the unit circle's image / π), in the inverse map's pixels.
    static func projectedRadius(_ faceToImage: Homography) -> Double {
        var points = [(x: Double, y: Double)]()
        for step in 0..<180 {
            let angle = Double(step) * .pi / 90
            guard let p = faceToImage.apply(cos(angle), sin(angle)) else { return 0 }
            points.append(p)
        }
        var area = 0.0
        for i in points.indices {
            let p = points[i], q = points[(i + 1) % points.count]
            area += p.x * q.y - q.x * p.y
        }
        return (abs(area) / 2 / .pi).squareRoot()
    }
}
