/// A decoded Redis reply. Error replies never appear here: the client throws them.
public enum RedisReply: Equatable, Sendable {
    case null
    case string(String)
    case integer(Int)
    case status(String)
    case array([RedisReply])

    public var string: String? {
        switch self {
        case .string(let s), .status(let s): return s
        case .integer(let i): return String(i)
        default: return nil
        }
    }

    public var integer: Int? {
        switch self {
        case .integer(let i): return i
        case .string(let s): return Int(s)
        default: return nil
        }
    }

    public var array: [RedisReply]? {
        if case .array(let a) = self { return a }
        return nil
    }
}
