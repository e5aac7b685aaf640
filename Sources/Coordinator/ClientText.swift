import HTTPTypes

/// The text a client gives a job or a batch (a clip's file name, a label): one line each, of
/// bounded length, checked before anything is stored, so every page, report, CSV and webhook can
/// show it as it is.
enum ClientText {
    static let maxFileNameLength = 255
    static let maxLabelLength = 200

    /// `name` (nil passes), refused with 400 naming `field` when empty, longer than the bound or
    /// holding a control character (a newline would break a CSV row or a log line).
    static func fileName(_ name: String?, field: String = "fileName") throws -> String? {
        try checked(name, field: field, maxLength: maxFileNameLength, allowsEmpty: false)
    }

    static func label(_ label: String?, field: String = "label") throws -> String? {
        try checked(label, field: field, maxLength: maxLabelLength, allowsEmpty: true)
    }

    /// The name a client sends with a video's bytes (an upload's `filename`, `?filename=`,
    /// `X-Filename`): empty is taken as none and a long one is kept to its first
    /// `maxFileNameLength` characters, as the API document says, but a control character is
    /// refused with 400 naming `field` (PostgreSQL's text holds no NUL, and a newline would break
    /// a CSV row or a log line).
    static func uploadedFileName(_ name: String?, field: String) throws -> String? {
        guard let name, !name.isEmpty else { return nil }
        guard !holdsControlCharacter(name) else {
            throw APIError(.badRequest, "invalid_request", "'\(field)' holds a control character (a NUL, newline or tab); send the file's name as one line")
        }
        return String(name.prefix(maxFileNameLength))
    }

    private static func holdsControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    private static func checked(_ text: String?, field: String, maxLength: Int, allowsEmpty: Bool) throws -> String? {
        guard let text else { return nil }
        guard (allowsEmpty || !text.isEmpty), text.unicodeScalars.count <= maxLength,
              !holdsControlCharacter(text) else {
            throw APIError(.badRequest, "invalid_request",
                           "'\(field)' must be one line of \(allowsEmpty ? "at most" : "1 to") \(maxLength) characters")
        }
        return text
    }
}
