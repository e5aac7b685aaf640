/// Why a presented text is not an API key. The messages never repeat the text: it may be a
/// real secret pasted into the wrong place, and errors end up in logs.
public enum APIKeyFormatError: Error, Equatable, CustomStringConvertible, Sendable {
    case empty
    case unknownPrefix
    case wrongLength(expected: Int, found: Int)
    /// `position` counts characters after the role prefix, from 1.
    case invalidCharacter(position: Int)

    public var description: String {
        let prefixes = APIKeyRole.allCases.map(\.keyPrefix).joined(separator: ", ")
        switch self {
        case .empty:
            return "the API key is empty"
        case .unknownPrefix:
            return "the API key does not start with one of \(prefixes)"
        case .wrongLength(let expected, let found):
            return "the API key has \(found) characters after its prefix; a key has \(expected)"
        case .invalidCharacter(let position):
            return "the API key's character \(position) after its prefix is not one of a-z, 2-7 (keys are lowercase base32)"
        }
    }
}
