import ReelworkCore

/// Reads and checks the job options the archery stages use. Every number goes through
/// `OptionReader`, so 1e300, NaN or 2.5 arrows are refused with the option's name and range.
enum ArcheryOptionsParser {
    static let arrowCountRange = 1...24
    /// World Archery faces are 40, 60, 80 and 122 cm; field and novelty faces go down to 10 cm.
    static let faceDiameterRange = 10.0...200.0
    /// Outdoor carbon shafts are about 5 mm, indoor aluminium up to 9.3 mm (World Archery's limit).
    static let arrowDiameterRange = 3.0...10.0

    static func parse(_ options: JSONValue) throws -> ArcheryOptions {
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
