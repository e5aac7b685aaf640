import Foundation
import Hummingbird

/// A submitted HTML form (`application/x-www-form-urlencoded`), read whole up to a limit.
struct DashboardForm: Sendable {
    /// Forms carry a token, a filter or a key: far less than this.
    static let maxBytes = 64 * 1024

    private(set) var fields: [String: String] = [:]

    init(fields: [String: String]) {
        self.fields = fields
    }

    init(request: Request) async throws {
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: Self.maxBytes) } catch {
            throw DashboardProblem(.contentTooLarge, "The form is larger than \(Self.maxBytes / 1024) KB.")
        }
        self.init(fields: Self.parse(String(buffer: body)))
    }

    subscript(_ name: String) -> String? { fields[name] }

    /// The first value of each name; `+` is a space; a malformed escape leaves the value as sent.
    static func parse(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                let spaced = s.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            let name = decode(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return fields
    }
}

/// Something wrong with what a dashboard user asked, shown to them as a page with this status.
struct DashboardProblem: Error {
    let status: HTTPResponse.Status
    let message: String

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }
}
