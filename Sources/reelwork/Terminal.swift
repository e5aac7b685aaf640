import Foundation
import ReelworkCore

/// Progress bars and tables for a terminal (stderr for progress, so stdout stays machine-readable).
enum Terminal {
    static let isInteractive = isatty(STDERR_FILENO) != 0

    static func bar(_ fraction: Double, width: Int = 24) -> String {
        let clamped = max(0, min(1, fraction.isFinite ? fraction : 0))
        let filled = Int((clamped * Double(width)).rounded())
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
    }

    static func bytes(_ n: Int64) -> String {
        let units = ["B", "KB", "MB", "GB"]
        var value = Double(n)
        var unit = 0
        while value >= 1000, unit < units.count - 1 { value /= 1000; unit += 1 }
        return unit == 0 ? "\(n) B" : String(format: "%.1f %@", value, units[unit])
    }

    static func writeErr(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Rewrites the current stderr line (interactive) or prints nothing until `final` (pipes, CI logs).
    static func status(_ line: String, final: Bool = false) {
        if isInteractive {
            writeErr("\r\u{1B}[2K" + line + (final ? "\n" : ""))
        } else if final {
            writeErr(line + "\n")
        }
    }

    /// A plain text table with left-aligned columns.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let widths = header.indices.map { i in ([header] + rows).map { $0.indices.contains(i) ? $0[i].count : 0 }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                i == cells.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }

    static func duration(_ seconds: Double?) -> String {
        guard let seconds else { return "-" }
        return seconds < 10 ? String(format: "%.2fs", seconds) : String(format: "%.1fs", seconds)
    }

    static func shortID(_ id: UUID) -> String {
        String(id.uuidString.lowercased().prefix(8))
    }
}
