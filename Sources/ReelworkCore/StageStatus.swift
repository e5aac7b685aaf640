/// A stage's state within one attempt: `pending → running → succeeded | skipped | failed`.
/// Named once, like `JobStatus`: SQL takes them as `NamedState` literals.
public enum StageStatus: String, Codable, NamedState {
    case pending, running, succeeded, skipped, failed

    public var isFinished: Bool { self == .succeeded || self == .skipped || self == .failed }

    /// Not finished yet: what an attempt that ends early closes (skipped, or failed when its run was lost).
    public static let unfinished: [StageStatus] = allCases.filter { !$0.isFinished }
}
