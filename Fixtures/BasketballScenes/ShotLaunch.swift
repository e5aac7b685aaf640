/// Finds a launch from a release point that does what a `ShotKind` says, by trying aims in a fixed
/// order and flying each (deterministic: the same kind and distance give the same launch).
enum ShotLaunch {
    struct Outcome {
        var made: Bool
        var contacts: BallFlight.Contacts
        /// The centre crossed the rim's height downwards between its ends at some point.
        var crossedInside = false
        /// The centre went down past the rim's height just outside its ends and on below the net beside it.
        var fellBeside = false
    }

    static func launch(_ kind: ShotKind, fromX x: Double, y: Double) -> BallFlight {
        let boardContactX = Court.boardX + Court.ballRadius
        var aims: [(tx: Double, ty: Double, entry: Double)] = []
        switch kind {
        case .swish, .inAndOut:
            for entry in [45.0, 50, 40, 55] { for tx in [0.0, 0.1, -0.1] { aims.append((tx, Court.rimHeight, entry)) } }
        case .bank:
            for entry in [20.0, 30, 10, 40] { for ty in stride(from: 10.6, through: 12.4, by: 0.1) { aims.append((boardContactX, ty, entry)) } }
        case .rimOut:
            for entry in [45.0, 40, 50] { for tx in stride(from: 0.7, through: 1.2, by: 0.05) { aims.append((tx, Court.rimHeight, entry)) } }
        case .airball:
            for tx in stride(from: 3.0, through: 4.0, by: 0.25) { aims.append((tx, Court.rimHeight, 45)) }
        case .offBoard:
            for entry in [10.0, 20, 5] { for ty in stride(from: 12.9, through: 11.0, by: -0.1) { aims.append((boardContactX, ty, entry)) } }
        case .rimDrop:
            for entry in [45.0, 50, 55, 60, 40, 65, 70] { for tx in stride(from: 0.95, through: 1.3, by: 0.025) { aims.append((tx, Court.rimHeight, entry)) } }
        }
        for aim in aims {
            let flight = BallFlight.aimed(from: x, y, at: aim.tx, aim.ty, entryDegrees: aim.entry)
            // The whole flight stays in the frame (its top at most 16.5 ft up), as a filmed shot would.
            let apex = flight.state.y + flight.state.vy * flight.state.vy / (2 * BallFlight.gravity)
            guard apex <= 16.5 else { continue }
            let outcome = fly(flight)
            let wanted: Bool
            switch kind {
            case .swish, .inAndOut: wanted = outcome.made && !outcome.contacts.rim && !outcome.contacts.board
            case .bank: wanted = outcome.made && outcome.contacts.board
            case .rimOut: wanted = !outcome.made && outcome.contacts.rim && !outcome.contacts.board
            case .airball: wanted = !outcome.made && !outcome.contacts.rim && !outcome.contacts.board
            case .offBoard: wanted = !outcome.made && outcome.contacts.board
            case .rimDrop: wanted = !outcome.made && outcome.contacts.rim && !outcome.contacts.board && outcome.fellBeside
            }
            if wanted { return flight }
        }
        preconditionFailure("no \(kind) launch found from \(x) ft")
    }

    /// Flies `flight` for 3 s in fine steps. Made, as DOMAIN.md has it: the centre crosses the rim's
    /// height downwards between its ends, then goes on below the net without leaving the hoop
    /// (half a rim width of slack for the net).
    static func fly(_ start: BallFlight) -> Outcome {
        var flight = start
        var made = false, crossedInside = false, everInside = false, besideFrom: Double?, fellBeside = false
        var previous = flight.state
        for _ in 0..<3600 {
            flight.advance(by: 1.0 / 1200)
            let s = flight.state
            let down = previous.y > Court.rimHeight && s.y <= Court.rimHeight
            if down, abs(s.x) < Court.rimHalfWidth { crossedInside = true; everInside = true }
            if down, abs(s.x) >= Court.rimHalfWidth, abs(s.x) < 2 * Court.rimHalfWidth { besideFrom = s.x }
            if crossedInside {
                if abs(s.x) > 2 * Court.rimHalfWidth { crossedInside = false }
                if s.y < Court.rimHeight - Court.netDepth { made = true; break }
            }
            if besideFrom != nil {
                if abs(s.x) >= 2 * Court.rimHalfWidth { besideFrom = nil }
                if s.y < Court.rimHeight - Court.netDepth { fellBeside = true; besideFrom = nil }
            }
            previous = s
        }
        return Outcome(made: made, contacts: fly(contactsOf: start), crossedInside: everInside, fellBeside: fellBeside)
    }

    private static func fly(contactsOf start: BallFlight) -> BallFlight.Contacts {
        var flight = start
        flight.advance(by: 3)
        return flight.contacts
    }
}
