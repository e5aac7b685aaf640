import ReelworkCore

/// Why a person should look at a detected row: a stable `code` and a message saying what was seen.
/// Every sport's rows carry these (a basketball shot's and a tennis swing's `review`, an arrow's
/// `review`, a bowling shot's `flags`), each sport naming its own reasons in an extension of its
/// alias (`ShotReview`, `SwingReview`, `ArrowReview`, `ShotFlag`), so the dashboard and the API
/// read them all the same way.
public struct ReviewReason: Sendable, Equatable {
    public var code: String
    public var message: String

    public init(code: String, message: String) { (self.code, self.message) = (code, message) }

    /// `{code, message}` in a result document.
    public var json: JSONValue { .object(["code": .string(code), "message": .string(message)]) }
}
