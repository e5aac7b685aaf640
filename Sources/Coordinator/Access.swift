import ReelworkCore

/// Which keys may call a route (guarantee 7). Every `/v1` route declares one when it is
/// registered (`APIRouter`); there is no default.
enum Access: Sendable {
    /// A club's own records (club keys, limited to their club) and every club's (operator keys).
    case clubData
    /// Operators only: the whole pool's state and controls.
    case operatorOnly
    /// A video's bytes: also worker keys, which read what they analyse and nothing else.
    case videoContent

    func allows(_ role: APIKeyRole) -> Bool {
        switch (self, role) {
        case (_, .operator): return true
        case (.clubData, .club), (.videoContent, .club), (.videoContent, .worker): return true
        case (.clubData, .worker), (.operatorOnly, .club), (.operatorOnly, .worker): return false
        }
    }
}
