/// seed 003 `SpeedValidation`: under 5 mph too slow, 30–35 valid but flagged, 35 and up invalid.
enum SpeedValidation: Equatable {
    case tooSlow
    case valid
    case validFlagged
    case invalid

    static let minSpeed = 5.0
    static let flagSpeed = 30.0
    static let maxSpeed = 35.0

    init(mph: Double) {
        switch mph {
        // A ball does not roll backwards: a negative slope is tracking jitter, not a speed.
        case _ where !mph.isFinite || mph <= 0: self = .invalid
        case ..<Self.minSpeed: self = .tooSlow
        case Self.minSpeed..<Self.flagSpeed: self = .valid
        case Self.flagSpeed..<Self.maxSpeed: self = .validFlagged
        default: self = .invalid
        }
    }
}
