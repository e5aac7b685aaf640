import ReelworkCore

/// One change a person makes to a detected end (seed 002's adjustment step).
public enum ArcheryCorrection: Sendable, Equatable {
    /// Move the detected arrow at `index` (0-based, as in the detected end) to face coordinates.
    case move(index: Int, x: Double, y: Double)
    /// An arrow the finder missed.
    case add(x: Double, y: Double)
    /// A false detection, by its detected index.
    case delete(index: Int)
}

/// A confirmed arrow: seed 002's `ConfirmedArrowPlacements.ArrowPlacementResult` fields
/// (`normalizedX`, `normalizedY`, `score`, `isX`, `wasAdjusted`), plus where it came from.
public struct ConfirmedArrow: Sendable, Equatable {
    public enum Source: String, Sendable { case detected, moved, added }
    public var normalizedX: Double
    public var normalizedY: Double
    public var distanceFromCenter: Double
    public var clockPositionDeg: Double
    public var score: Int
    public var isX: Bool
    public var wasAdjusted: Bool
    public var source: Source
    /// The detected arrow's index, nil for an added one.
    public var detectedIndex: Int?
}

/// The confirmed version of an end, stored beside the detected one.
public struct ConfirmedEnd: Sendable, Equatable {
    public var arrows: [ConfirmedArrow]
    public var total: Int
    public var xCount: Int
    public var tens: Int

    /// `arrows[]` {normalizedX, normalizedY, distanceFromCenter, clockPositionDeg, score, isX,
    /// wasAdjusted, source, detectedIndex}, `total`, `xCount`, `tens`.
    public func json() -> JSONValue {
        .object([
            "arrows": .array(arrows.map { a in
                .object([
                    "normalizedX": ArcheryJSON.number(a.normalizedX, 10000), "normalizedY": ArcheryJSON.number(a.normalizedY, 10000),
                    "distanceFromCenter": ArcheryJSON.number(a.distanceFromCenter, 10000),
                    "clockPositionDeg": ArcheryJSON.number(a.clockPositionDeg, 10),
                    "score": .number(Double(a.score)), "isX": .bool(a.isX), "wasAdjusted": .bool(a.wasAdjusted),
                    "source": .string(a.source.rawValue),
                    "detectedIndex": a.detectedIndex.map { .number(Double($0)) } ?? .null,
                ])
            }),
            "total": .number(Double(total)), "xCount": .number(Double(xCount)), "tens": .number(Double(tens)),
        ])
    }

    public func csv() -> String { ArcheryCSV.text(for: self) }
}

public enum ArcheryCorrections {
    /// Placements further out than this (face radii) are off the boss: the seed's drag limit.
    public static let coordinateLimit = 1.5
    /// A move shorter than this (face radii) is not an adjustment (the seed's 0.01).
    static let adjustmentThreshold = 0.01
    static let maximumCorrections = 100

    /// Reads `{"corrections": [{"op": "move", "index": 0, "x": 0.1, "y": -0.2}, {"op": "add", "x": …,
    /// "y": …}, {"op": "delete", "index": 2}]}`. Throws `ReelworkError.invalidInput` naming the
    /// correction and its problem.
    public static func parse(_ body: JSONValue) throws -> [ArcheryCorrection] {
        guard case .array(let items)? = body["corrections"] else {
            throw ReelworkError.invalidInput("corrections must be an array of {op: move|add|delete, …}")
        }
        guard items.count <= maximumCorrections else {
            throw ReelworkError.invalidInput("at most \(maximumCorrections) corrections at once, not \(items.count)")
        }
        return try items.enumerated().map { position, item in
            let name = "corrections[\(position)]"
            guard case .string(let op)? = item["op"] else { throw ReelworkError.invalidInput("\(name).op must be move, add or delete") }
            func index() throws -> Int { try OptionReader.integer(item["index"], name: "\(name).index", in: 0...999) }
            func coordinate(_ key: String) throws -> Double {
                try OptionReader.number(item[key], name: "\(name).\(key)", in: -coordinateLimit...coordinateLimit)
            }
            switch op {
            case "move": return .move(index: try index(), x: try coordinate("x"), y: try coordinate("y"))
            case "add": return .add(x: try coordinate("x"), y: try coordinate("y"))
            case "delete": return .delete(index: try index())
            default: throw ReelworkError.invalidInput("\(name).op must be move, add or delete, not '\(op)'")
            }
        }
    }

    /// Applies `corrections` to the detected end and scores the result. Indices always name the
    /// detected arrows (moves and deletes do not renumber them); added arrows come last. Throws
    /// `ReelworkError.invalidInput` for an index that does not exist, an arrow both moved and
    /// deleted or moved twice, or a coordinate that is not finite or beyond ±1.5.
    public static func apply(_ corrections: [ArcheryCorrection], to end: ArcheryResult, options: ArcheryOptions) throws -> ConfirmedEnd {
        try apply(corrections, toPlacements: end.arrows.map { ($0.normalizedX, $0.normalizedY) }, options: options)
    }

    /// The same, on a stored result document (`ArcheryResult.json()`): the server keeps the detected
    /// end as JSON and applies corrections to it later. Throws `invalidInput` when the document has
    /// no `arrows` with finite `normalizedX` and `normalizedY`.
    public static func apply(_ corrections: [ArcheryCorrection], toDetected document: JSONValue, options: ArcheryOptions) throws -> ConfirmedEnd {
        guard case .array(let items)? = document["arrows"] else {
            throw ReelworkError.invalidInput("the detected end has no arrows array")
        }
        let placements = try items.enumerated().map { index, item -> (x: Double, y: Double) in
            guard case .number(let x)? = item["normalizedX"], case .number(let y)? = item["normalizedY"], x.isFinite, y.isFinite else {
                throw ReelworkError.invalidInput("the detected end's arrow \(index) has no normalizedX and normalizedY")
            }
            return (x, y)
        }
        return try apply(corrections, toPlacements: placements, options: options)
    }

    static func apply(_ corrections: [ArcheryCorrection], toPlacements detected: [(x: Double, y: Double)],
                      options: ArcheryOptions) throws -> ConfirmedEnd {
        let count = detected.count
        var moved = [Int: (x: Double, y: Double)](), deleted = Set<Int>(), added = [(x: Double, y: Double)]()
        func checkIndex(_ index: Int) throws {
            guard index >= 0, index < count else {
                throw ReelworkError.invalidInput("arrow index \(index) does not exist: the end has \(count) detected arrows (0…\(max(0, count - 1)))")
            }
            guard moved[index] == nil, !deleted.contains(index) else {
                throw ReelworkError.invalidInput("arrow \(index) is corrected twice: give one move or one delete per arrow")
            }
        }
        func checkPoint(_ x: Double, _ y: Double) throws {
            guard x.isFinite, y.isFinite, abs(x) <= coordinateLimit, abs(y) <= coordinateLimit else {
                throw ReelworkError.invalidInput("an arrow's x and y must be numbers from −1.5 to 1.5 face radii, not (\(x), \(y))")
            }
        }
        for correction in corrections {
            switch correction {
            case .move(let index, let x, let y):
                try checkIndex(index); try checkPoint(x, y); moved[index] = (x, y)
            case .add(let x, let y):
                try checkPoint(x, y); added.append((x, y))
            case .delete(let index):
                try checkIndex(index); deleted.insert(index)
            }
        }
        let radius = options.arrowRadiusInFaceRadii
        func confirmed(_ x: Double, _ y: Double, adjusted: Bool, source: ConfirmedArrow.Source, index: Int?) -> ConfirmedArrow {
            let distance = (x * x + y * y).squareRoot()
            let (score, isX) = ArcheryScoring.score(distance: distance, arrowRadius: radius)
            return ConfirmedArrow(normalizedX: x, normalizedY: y, distanceFromCenter: distance,
                                  clockPositionDeg: ArcheryScoring.clockPosition(x: x, y: y), score: score, isX: isX,
                                  wasAdjusted: adjusted, source: source, detectedIndex: index)
        }
        var arrows = [ConfirmedArrow]()
        for (index, arrow) in detected.enumerated() where !deleted.contains(index) {
            if let to = moved[index] {
                let shift = ((to.x - arrow.x) * (to.x - arrow.x) + (to.y - arrow.y) * (to.y - arrow.y)).squareRoot()
                arrows.append(confirmed(to.x, to.y, adjusted: shift > adjustmentThreshold, source: .moved, index: index))
            } else {
                arrows.append(confirmed(arrow.x, arrow.y, adjusted: false, source: .detected, index: index))
            }
        }
        arrows += added.map { confirmed($0.x, $0.y, adjusted: true, source: .added, index: nil) }
        let totals = ArcheryScoring.totals(arrows.map { ($0.score, $0.isX) })
        return ConfirmedEnd(arrows: arrows, total: totals.total, xCount: totals.xCount, tens: totals.tens)
    }
}
