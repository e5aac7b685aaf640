import Foundation
import Store

/// The overview's chart: jobs finished per minute over the last hour as stacked bars (succeeded,
/// failed on top), drawn on the server as SVG so the page needs no script to show it.
enum ThroughputChart {
    static let width = 720.0, height = 200.0
    static let left = 44.0, bottom = 24.0, top = 10.0, right = 8.0

    static func svg(_ minutes: [ThroughputMinute]) -> String {
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let peak = max(1, minutes.map { $0.succeeded + $0.failed }.max() ?? 1)
        // Four grid steps of a whole, round number of jobs.
        let scale = 4 * niceCeiling(Int((Double(peak) / 4).rounded(.up)))
        let slot = plotWidth / Double(max(1, minutes.count))
        var parts: [String] = []
        parts.append(##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(width))" height="\##(Int(height))" viewBox="0 0 \##(Int(width)) \##(Int(height))" role="img" aria-label="jobs finished per minute, last hour" id="throughput-chart">"##)
        for step in 0...4 {
            let value = scale * Double(step) / 4
            let y = top + plotHeight - plotHeight * Double(step) / 4
            parts.append(##"<line x1="\##(left)" x2="\##(width - right)" y1="\##(f(y))" y2="\##(f(y))" stroke="#e3e6eb"/>"##)
            parts.append(##"<text x="\##(left - 6)" y="\##(f(y + 4))" font-size="11" text-anchor="end" fill="#667085">\##(label(value))</text>"##)
        }
        for (i, m) in minutes.enumerated() {
            let x = left + Double(i) * slot + slot * 0.15, w = slot * 0.7
            let hs = plotHeight * Double(m.succeeded) / scale, hf = plotHeight * Double(m.failed) / scale
            let base = top + plotHeight
            if m.succeeded > 0 {
                parts.append(##"<rect class="ok" x="\##(f(x))" y="\##(f(base - hs))" width="\##(f(w))" height="\##(f(hs))" fill="#2e9e55"><title>\##(m.succeeded) succeeded</title></rect>"##)
            }
            if m.failed > 0 {
                parts.append(##"<rect class="failed" x="\##(f(x))" y="\##(f(base - hs - hf))" width="\##(f(w))" height="\##(f(hf))" fill="#d64541"><title>\##(m.failed) failed</title></rect>"##)
            }
        }
        let count = minutes.count
        for (i, text) in [(0, "-\(count) min"), (count / 2, "-\(count - count / 2) min"), (count - 1, "now")] where count > 0 {
            let x = left + (Double(i) + 0.5) * slot
            parts.append(##"<text x="\##(f(x))" y="\##(f(height - 6))" font-size="11" text-anchor="middle" fill="#667085">\##(text)</text>"##)
        }
        parts.append(##"<line x1="\##(left)" x2="\##(width - right)" y1="\##(f(top + plotHeight))" y2="\##(f(top + plotHeight))" stroke="#98a2b3"/>"##)
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    /// 1, 2 or 5 times a power of ten, at least `value`.
    static func niceCeiling(_ value: Int) -> Double {
        var magnitude = 1.0
        while magnitude * 10 <= Double(value) { magnitude *= 10 }
        for factor in [1.0, 2.0, 5.0, 10.0] where factor * magnitude >= Double(value) { return factor * magnitude }
        return 10 * magnitude
    }

    static func label(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value) }
    static func f(_ value: Double) -> String { String(format: "%.1f", value) }
}
