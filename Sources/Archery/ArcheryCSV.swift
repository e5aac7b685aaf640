/// One CSV row per arrow. The columns are seed 002's field names; `arrow` is 1-based in the end's
/// order (clockwise from 12 o'clock).
public enum ArcheryCSV {
    public static let columns = [
        "arrow", "score", "isXRing", "normalizedX", "normalizedY", "distanceFromCenter", "clockPositionDeg",
        "confidence", "pixelX", "pixelY",
    ]

    public static func text(for end: ArcheryResult) -> String {
        var lines = [columns.joined(separator: ",")]
        for (index, a) in end.arrows.enumerated() {
            lines.append([
                String(index + 1), String(a.score), a.isXRing ? "true" : "false",
                fixed(a.normalizedX, 4), fixed(a.normalizedY, 4), fixed(a.distanceFromCenter, 4), fixed(a.clockPositionDeg, 1),
                fixed(a.confidence, 3), fixed(a.pixelX, 1), fixed(a.pixelY, 1),
            ].joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func text(for end: ConfirmedEnd) -> String {
        var lines = [(["arrow", "score", "isX", "normalizedX", "normalizedY", "distanceFromCenter", "clockPositionDeg", "wasAdjusted", "source"])
            .joined(separator: ",")]
        for (index, a) in end.arrows.enumerated() {
            lines.append([
                String(index + 1), String(a.score), a.isX ? "true" : "false", fixed(a.normalizedX, 4), fixed(a.normalizedY, 4),
                fixed(a.distanceFromCenter, 4), fixed(a.clockPositionDeg, 1), a.wasAdjusted ? "true" : "false", a.source.rawValue,
            ].joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A number with `digits` decimals, empty when not finite (a CSV cell with no value).
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if text.hasSuffix(".0") && digits == 0 { text.removeLast(2) }
        return text
    }
}
