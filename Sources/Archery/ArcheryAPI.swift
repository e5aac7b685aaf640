import ReelworkCore
import SportMath

// The Archery module's surface as the pipeline uses it (the `target`, `arrows` and `scoring`
// stages, the corrections call and the CSV). Implementation files beside this one fill it in;
// keep these signatures.
//
// How an end is scored (docs/DOMAIN.md, "Archery (seed 002)"):
//   WorkingImage        the photo box-averaged to ≤ 1600 px on its long side, each pixel labelled
//                       gold / red / blue / black / white / other (RingColor)
//   RingBoundaryTracer  rays from the gold's centroid; where gold→red, red→blue, blue→black,
//                       black→white and white→background change along each ray
//   ConicFit            an ellipse per boundary (algebraic least squares), outliers dropped
//   FaceFitter          one homography fitted to all boundaries at once (each point's distance
//                       from the centre in face radii = its ring's radius): under perspective the
//                       ellipses' centres are not the face's centre, the homography's is
//   ArrowFinder         pixels unlike the colour the face should have there (each zone's colour
//                       measured in the photo), grouped; pieces of one shaft cut by a ring line
//                       joined; the end away from the fletching is the impact, a small round group
//                       a hole (its centre)
//   ShaftSplitter       a group holding several crossing shafts parted into straight runs (RANSAC)
//   ArcheryScoring      seed 002's table with the World Archery line-cutter rule

/// A decoded photo or frame: packed RGB24, rows top to bottom, in display orientation.
public struct ArcheryImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]

    /// Throws `ReelworkError.invalidInput` when the buffer does not hold width × height × 3 bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) throws {
        guard width > 0, height > 0, let area = width.checkedMultiplying(by: height),
              let bytes = area.checkedMultiplying(by: 3), bytes == pixels.count else {
            throw ReelworkError.invalidInput("an archery image must be width × height × 3 bytes of RGB (got \(width)×\(height), \(pixels.count) bytes)")
        }
        (self.width, self.height, self.pixels) = (width, height, pixels)
    }
}

/// A job's archery options: `expectedArrowCount` (1…24, optional), `faceDiameterCm` (10…200,
/// default 122), `arrowDiameterMm` (3…10, default 5.5). Unknown keys are ignored, as for tennis.
public struct ArcheryOptions: Sendable, Equatable {
    public static let defaultFaceDiameterCm = 122.0
    public static let defaultArrowDiameterMm = 5.5

    public var expectedArrowCount: Int?
    public var faceDiameterCm: Double
    public var arrowDiameterMm: Double

    public init(expectedArrowCount: Int? = nil, faceDiameterCm: Double = defaultFaceDiameterCm,
                arrowDiameterMm: Double = defaultArrowDiameterMm) {
        (self.expectedArrowCount, self.faceDiameterCm, self.arrowDiameterMm) = (expectedArrowCount, faceDiameterCm, arrowDiameterMm)
    }

    /// The arrow's radius in face radii: how far outside a ring's edge an arrow's centre may be and
    /// still touch its line (2.75 mm / 610 mm ≈ 0.0045 by default).
    public var arrowRadiusInFaceRadii: Double {
        (arrowDiameterMm / 2) / (faceDiameterCm * 10 / 2)
    }

    /// Throws `ReelworkError.invalidInput` naming the option and the problem.
    public static func parse(_ options: JSONValue) throws -> ArcheryOptions {
        try ArcheryOptionsParser.parse(options)
    }
}

/// The target face found in a photo.
public struct TargetFace: Sendable, Equatable {
    /// Image pixels of the face's true centre (the homography's, not an ellipse's centre).
    public var centerX: Double
    public var centerY: Double
    /// The face's radius in pixels as if seen straight on: √(area of the face's image / π).
    public var radiusPx: Double
    /// How many of the five colour boundaries (gold/red, red/blue, blue/black, black/white, the
    /// white's outer edge) were traced and fitted.
    public var ringsFound: Int
    /// Image pixels → normalised face coordinates (centre 0, face radius 1, x right, y down, as seed
    /// 002's screen coordinates), row-major, h[8] = 1. The face's "up" (−y) is the direction that
    /// looks straight up in the photo at the centre.
    public var homography: [Double]
    /// Root-mean-square distance of the fitted boundary points from their rings, in pixels.
    public var fitErrorPx: Double

    public init(centerX: Double, centerY: Double, radiusPx: Double, ringsFound: Int, homography: [Double], fitErrorPx: Double) {
        (self.centerX, self.centerY, self.radiusPx, self.ringsFound) = (centerX, centerY, radiusPx, ringsFound)
        (self.homography, self.fitErrorPx) = (homography, fitErrorPx)
    }

    /// Normalised face coordinates of an image point; nil on the horizon of the face's plane.
    public func faceCoordinates(pixelX: Double, pixelY: Double) -> (x: Double, y: Double)? {
        Homography(h: homography).apply(pixelX, pixelY)
    }

    /// How far from the face's centre an image point lies, in face radii; nil on the horizon.
    public func radius(pixelX: Double, pixelY: Double) -> Double? {
        faceCoordinates(pixelX: pixelX, pixelY: pixelY).map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }
    }

    /// The image point of a point in normalised face coordinates; nil when it has no image.
    public func pixel(faceX: Double, faceY: Double) -> (x: Double, y: Double)? {
        Homography(h: homography).inverse?.apply(faceX, faceY)
    }
}

/// A box in image pixels.
public struct BoundingBox: Sendable, Equatable {
    public var x, y, width, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) { (self.x, self.y, self.width, self.height) = (x, y, width, height) }
}

/// Seed 002's `DetectedArrow`, scored.
public struct DetectedArrow: Sendable, Equatable {
    /// −1…+1 across the face, centre 0, face radius 1, x right, y down (seed 002's
    /// `(location.y − center.y) / radius`: +0.5 is half a radius below the centre).
    public var normalizedX: Double
    public var normalizedY: Double
    /// The impact point in image pixels.
    public var pixelX: Double
    public var pixelY: Double
    /// In face radii.
    public var distanceFromCenter: Double
    /// Where the impact is around the face, as on a clock: 0° = 12 o'clock, growing clockwise
    /// (90° = 3 o'clock), 0 ≤ value < 360.
    public var clockPositionDeg: Double
    /// The chance that this is a real arrow scored right (`ArrowConfidence`): lowered by each
    /// review reason.
    public var confidence: Double
    public var boundingBox: BoundingBox
    public var score: Int
    public var isXRing: Bool
    /// Why a person should look at it; empty when nothing is in doubt.
    public var review: [ArrowReview]

    public init(normalizedX: Double, normalizedY: Double, pixelX: Double, pixelY: Double, distanceFromCenter: Double,
                clockPositionDeg: Double, confidence: Double, boundingBox: BoundingBox, score: Int, isXRing: Bool,
                review: [ArrowReview] = []) {
        (self.normalizedX, self.normalizedY, self.pixelX, self.pixelY) = (normalizedX, normalizedY, pixelX, pixelY)
        (self.distanceFromCenter, self.clockPositionDeg, self.confidence) = (distanceFromCenter, clockPositionDeg, confidence)
        (self.boundingBox, self.score, self.isXRing, self.review) = (boundingBox, score, isXRing, review)
    }
}

/// A scored end from one photo (or from the steady frames of a video).
public struct ArcheryEnd: Sendable, Equatable {
    public var face: TargetFace
    /// In the order found: by clock position from 12 o'clock.
    public var arrows: [DetectedArrow]
    public var total: Int
    public var xCount: Int
    public var tens: Int
    public var expectedArrowCount: Int?
    /// expectedArrowCount − arrows found, when that is positive.
    public var missingArrows: Int?
    public var message: String?
    /// Possible arrows found beyond `expectedArrowCount` and not scored (the least arrow-like).
    public var leftOutCandidates: Int?

    public init(face: TargetFace, arrows: [DetectedArrow], total: Int, xCount: Int, tens: Int, expectedArrowCount: Int?,
                missingArrows: Int?, message: String?, leftOutCandidates: Int? = nil) {
        (self.face, self.arrows, self.total, self.xCount, self.tens) = (face, arrows, total, xCount, tens)
        (self.expectedArrowCount, self.missingArrows, self.message) = (expectedArrowCount, missingArrows, message)
        self.leftOutCandidates = leftOutCandidates
    }

    /// The result document: `face` {center {x, y}, radius, ringsFound, homography}, `arrows[]`
    /// (seed 002's DetectedArrow fields plus `score`, `isXRing`), `total`, `xCount`, `tens`,
    /// and `expectedArrowCount`, `missingArrows`, `message` when arrows are missing, or
    /// `leftOutCandidates` and `message` when more were found than shot.
    public func json() -> JSONValue { ArcheryJSON.encode(self) }

    /// One CSV row per arrow, with a header row (`ArcheryCSV.columns`).
    public func csv() -> String { ArcheryCSV.text(for: self) }
}

public enum ArcheryAnalyzer {
    /// The message for `needs_person` when no face is found.
    public static let noFaceAdvice =
        "No target face found: photograph the whole face, in good light, from within 35° of straight on"

    /// Finds the face, its arrows, and scores the end. Throws `ReelworkError.needsPerson` with
    /// advice when no whole face is found: `noFaceAdvice`, or a message saying the face is cut off
    /// by the photo's edge. Deterministic: the same photo always gives the same end.
    public static func analyze(_ image: ArcheryImage, options: ArcheryOptions) throws -> ArcheryEnd {
        let working = WorkingImage(image)
        let found = try FaceFinder.find(in: working)
        let impacts = ArrowFinder.find(in: working, face: found, options: options)
        return ArcheryScoring.end(face: found.face, impacts: impacts, options: options)
    }

    /// The face alone (the `target` stage).
    public static func findFace(_ image: ArcheryImage) throws -> TargetFace {
        try FaceFinder.find(in: WorkingImage(image)).face
    }
}
