import ArgumentParser
import Foundation
import ReelworkClient

extension JobsCommand {
    struct Correct: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Correct a succeeded basketball, bowling or tennis job's shots or swings, or print its confirmed version.",
            discussion: """
                With --file, POSTs the corrections (JSON: {"corrections": [...]}, indices of the detected rows, 0-based) \
                and prints the new confirmed version; without, prints the newest one. Each file is a whole set of \
                corrections to the detected result. Basketball: {"op": "made", "index": 2, "made": true}, \
                {"op": "type", "index": 0, "shotType": "3PT"}, {"op": "drop", "index": 4}, \
                {"op": "add", "releaseTime": 12.4, "made": false, "shotType": "2PT"}. Bowling: {"op": "drop", "index": 1}, \
                {"op": "result", "index": 0, "result": "strike"}. Tennis: {"op": "drop", "index": 3}, \
                {"op": "add", "type": "backhand", "contactTime": 8.2}.
                """)
        @OptionGroup var client: ClientOptions
        @OptionGroup var confirmation: CorrectionOptions

        func run() async throws {
            try await confirmation.run(.corrections, client: client)
        }
    }
}
