import Threading

/// A counter safe to bump from several threads: how many are inside now, the most at once, and
/// what they recorded.
final class LockedCounter: Sendable {
    private struct State { var current = 0, highest = 0, items: [String] = [] }
    private let state = LockedValue(State())

    func enter() {
        state.withLock { $0.current += 1; $0.highest = max($0.highest, $0.current) }
    }

    func leave() {
        state.withLock { $0.current -= 1 }
    }

    func record(_ item: String) {
        state.withLock { $0.items.append(item) }
    }

    var peak: Int { state.withLock { $0.highest } }

    var recorded: [String] { state.withLock { $0.items } }
}
