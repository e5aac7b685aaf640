import Foundation
import Synchronization

/// The progress of a `submit`'s uploads: one line per file in flight and an overall line (files,
/// bytes, rate, ETA), redrawn in place on a terminal; on a pipe, one line per finished file.
final class UploadBoard: Sendable {
    private struct State {
        var inFlight: [String: (sent: Int64, total: Int64)] = [:]
        var filesDone = 0
        var bytesDone: Int64 = 0
        var linesDrawn = 0
    }

    let totalFiles: Int
    let totalBytes: Int64
    private let started = Date()
    private let state = Mutex(State())

    init(totalFiles: Int, totalBytes: Int64) {
        self.totalFiles = totalFiles
        self.totalBytes = totalBytes
    }

    func progress(_ name: String, sent: Int64, total: Int64) {
        state.withLock { $0.inFlight[name] = (sent, total) }
    }

    func finished(_ name: String, size: Int64, outcome: String) {
        state.withLock { state in
            state.inFlight[name] = nil
            state.filesDone += 1
            state.bytesDone += size
        }
        say("\(name): \(outcome)")
    }

    /// A line above the board (a file resumed, a part sent again).
    func say(_ line: String) {
        if Terminal.isInteractive {
            redraw(log: line)
        } else {
            Terminal.writeErr(line + "\n")
        }
    }

    /// Redraws the board; `log` is printed above it, once.
    func redraw(log: String? = nil) {
        guard Terminal.isInteractive else { return }
        let text = state.withLock { state -> String in
            var out = state.linesDrawn > 0 ? "\u{1B}[\(state.linesDrawn)A" : ""
            if let log { out += "\u{1B}[2K" + log + "\n" }
            var lines = state.inFlight.sorted { $0.key < $1.key }.map { name, p in
                "  \(Terminal.bar(p.total > 0 ? Double(p.sent) / Double(p.total) : 0, width: 16)) \(name) "
                    + "\(Terminal.bytes(p.sent))/\(Terminal.bytes(p.total))"
            }
            lines.append(overall(state))
            out += lines.map { "\u{1B}[2K" + $0 + "\n" }.joined()
            // Lines left over from a taller board are cleared.
            let extra = max(0, state.linesDrawn - (log == nil ? 0 : 1) - lines.count)
            out += String(repeating: "\u{1B}[2K\n", count: extra)
            if extra > 0 { out += "\u{1B}[\(extra)A" }
            state.linesDrawn = lines.count
            return out
        }
        Terminal.writeErr(text)
    }

    private func overall(_ state: State) -> String {
        let sent = state.bytesDone + state.inFlight.values.reduce(0) { $0 + $1.sent }
        let seconds = max(0.001, Date().timeIntervalSince(started))
        let rate = Double(sent) / seconds
        let left = Double(max(0, totalBytes - sent))
        let eta = rate > 0 ? String(format: "%.0fs", left / rate) : "-"
        let fraction = totalBytes > 0 ? Double(sent) / Double(totalBytes) : 1
        return "\(Terminal.bar(fraction)) files \(state.filesDone)/\(totalFiles)  \(Terminal.bytes(sent))/\(Terminal.bytes(totalBytes))  "
            + "\(Terminal.bytes(Int64(rate)))/s  ETA \(eta)"
    }
}
