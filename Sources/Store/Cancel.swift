/// How a cancel says who asked for it: "cancelled by an operator", "cancelled by club north".
/// The job's `cancelled_by` holds who (migration 0015); a waiting job's message is written with the
/// cancel, a running job's by its worker when it stops.
public enum Cancel {
    public static let byOperator = "an operator"

    /// Who a key is, as a cancel names it: an operator's key, or a club's.
    public static func by(club: String?) -> String {
        club.map { "club \($0)" } ?? byOperator
    }

    public static func message(by who: String) -> String { "cancelled by \(who)" }

    /// The SET items that cancel a waiting job asked for by the text parameter `whoParam`.
    static func waitingSet(_ whoParam: String) -> String {
        "cancelled_by = \(whoParam), last_error = 'cancelled by ' || \(whoParam), last_error_kind = NULL"
    }
}
