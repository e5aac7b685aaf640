import Metrics
import ReelworkCore
import SportKit
import Sports

/// `reelwork_corrections_total{sport, kind}`: the corrections people make to results, by sport and
/// kind (the correction's op), so the pool sees where its analysis is weak. Each request holds a
/// whole set of corrections to the detected result, so a person who adds one more correction
/// sends the earlier ones again: only those not in the version before are counted.
enum CorrectionMetric {
    /// Every sport's kinds at 0, so that a scrape shows them before the first correction and a
    /// rate over them starts from a known value: its row corrector's ops and its own route's
    /// (archery's `/v1/jobs/{id}/arrows`).
    static func register() {
        for plugin in SportRegistry.plugins {
            let kinds = (plugin.corrector?.operations.keys.sorted() ?? []) + (plugin.confirmationRoute?.operations ?? [])
            for kind in kinds { _ = counter(plugin.sport.rawValue, kind) }
        }
    }

    /// Counts the corrections of a new version (`corrections`, each `{op, …}`) that the previous
    /// version (`previous`) did not hold.
    static func count(sport: String, corrections: JSONValue, previous: JSONValue?) {
        var earlier: [JSONValue] = if case .array(let items)? = previous { items } else { [] }
        guard case .array(let items) = corrections else { return }
        for item in items {
            if let same = earlier.firstIndex(of: item) {
                earlier.remove(at: same)
                continue
            }
            if case .string(let kind)? = item["op"] { counter(sport, kind).increment() }
        }
    }

    private static func counter(_ sport: String, _ kind: String) -> Counter {
        Counter(label: MetricName.corrections, dimensions: [("sport", sport), ("kind", kind)])
    }
}
