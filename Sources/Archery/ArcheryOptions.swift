import ReelworkCore

/// A job's archery options: `expectedArrowCount` (1…24, optional), `faceDiameterCm` (10…200,
/// default 122), `arrowDiameterMm` (3…10, default 5.5). Any other key is refused, naming the nearest
/// known one (`OptionKeys.check`), as for every sport.
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

    static let arrowCountRange = 1...24
    /// World Archery faces are 40, 60, 80 and 122 cm; field and novelty faces go down to 10 cm.
    static let faceDiameterRange = 10.0...200.0
    /// Outdoor carbon shafts are about 5 mm, indoor aluminium up to 9.3 mm (World Archery's limit).
    static let arrowDiameterRange = 3.0...10.0

    /// Throws `ReelworkError.invalidInput` naming the option and the problem. Every number goes
    /// through `OptionReader`, so 1e300, NaN or 2.5 arrows are refused with the option's name and range.
    public static func parse(_ options: JSONValue) throws -> ArcheryOptions {
        switch options {
        case .object, .null: break
        default: throw ReelworkError.invalidInput("archery options must be an object")
        }
        try OptionKeys.check(options, known: ["expectedArrowCount", "faceDiameterCm", "arrowDiameterMm"], sport: .archery)
        var parsed = ArcheryOptions()
        if let value = options["expectedArrowCount"], value != .null {
            parsed.expectedArrowCount = try OptionReader.integer(value, name: "expectedArrowCount", in: arrowCountRange)
        }
        if let value = options["faceDiameterCm"], value != .null {
            parsed.faceDiameterCm = try OptionReader.number(value, name: "faceDiameterCm", in: faceDiameterRange)
        }
        if let value = options["arrowDiameterMm"], value != .null {
            parsed.arrowDiameterMm = try OptionReader.number(value, name: "arrowDiameterMm", in: arrowDiameterRange)
        }
        return parsed
    }
}
