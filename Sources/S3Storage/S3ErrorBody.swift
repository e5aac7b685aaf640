import Foundation

/// An S3 error answer: `<Error><Code>NoSuchBucket</Code><Message>…</Message></Error>`.
struct S3ErrorBody {
    var code: String
    var message: String?

    init?(xml: Data) {
        guard let fields = S3XMLFields.parse(xml), let code = fields.first(where: { $0.name == "Code" })?.text, !code.isEmpty else { return nil }
        self.code = String(code.prefix(100))
        message = fields.first(where: { $0.name == "Message" }).map { String($0.text.prefix(300)) }
    }
}
