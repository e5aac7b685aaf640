import ReelworkCore
import SportKit

/// The archery result document. Coordinates to 0.0001 face radii, pixels to 0.1, angles to 0.1°.
enum ArcheryJSON {
    static func encode(_ end: ArcheryResult) -> JSONValue {
        var fields: [String: JSONValue] = [
            "face": face(end.face),
            "arrows": .array(end.arrows.enumerated().map { arrow($1, index: $0) }),
            "total": .number(Double(end.total)),
            "xCount": .number(Double(end.xCount)),
            "tens": .number(Double(end.tens)),
        ]
        if let expected = end.expectedArrowCount { fields["expectedArrowCount"] = .number(Double(expected)) }
        if let missing = end.missingArrows { fields["missingArrows"] = .number(Double(missing)) }
        if let message = end.message { fields["message"] = .string(message) }
        if let leftOut = end.leftOutCandidates { fields["leftOutCandidates"] = .number(Double(leftOut)) }
        return .object(fields)
    }

    static func face(_ face: TargetFace) -> JSONValue {
        .object([
            "center": .object(["x": number(face.centerX, 10), "y": number(face.centerY, 10)]),
            "radius": number(face.radiusPx, 10),
            "ringsFound": .number(Double(face.ringsFound)),
            // Full precision: the picture and the corrections map points with it.
            "homography": .array(face.homography.map { $0.isFinite ? .number($0) : .null }),
            "fitErrorPx": number(face.fitErrorPx, 100),
        ])
    }

    static func arrow(_ arrow: DetectedArrow, index: Int) -> JSONValue {
        .object([
            "id": .number(Double(index)),
            "normalizedX": number(arrow.normalizedX, 10000),
            "normalizedY": number(arrow.normalizedY, 10000),
            "pixelX": number(arrow.pixelX, 10),
            "pixelY": number(arrow.pixelY, 10),
            "distanceFromCenter": number(arrow.distanceFromCenter, 10000),
            "clockPositionDeg": number(arrow.clockPositionDeg, 10),
            "confidence": number(arrow.confidence, 1000),
            "boundingBox": .object([
                "x": number(arrow.boundingBox.x, 10), "y": number(arrow.boundingBox.y, 10),
                "width": number(arrow.boundingBox.width, 10), "height": number(arrow.boundingBox.height, 10),
            ]),
            "score": .number(Double(arrow.score)),
            "isXRing": .bool(arrow.isXRing),
            "review": .array(arrow.review.map(\.json)),
        ])
    }

    /// Rounded to 1/scale; non-finite values are null (never a made-up number).
    static func number(_ value: Double, _ scale: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        return .number((value * scale).rounded() / scale)
    }
}
