import Foundation
import ObjectStorage

/// One page of ListObjectsV2: `<Contents>` entries of `Key`, `LastModified` and `Size`, and
/// whether another page follows.
struct S3ListPage {
    var objects: [StoredObject] = []
    var isTruncated = false
    var continuationToken: String?

    init?(xml: Data) {
        guard let fields = S3XMLFields.parse(xml) else { return nil }
        var key: String?, size: Int64?, modified: Date?
        for field in fields {
            switch field.name {
            case "Key": key = field.text
            case "Size": size = Int64(field.text)
            case "LastModified": modified = Self.date(field.text)
            case "Contents":
                guard let found = key else { return nil }
                objects.append(StoredObject(key: found, bytes: size ?? 0, modified: modified ?? .distantPast))
                key = nil; size = nil; modified = nil
            case "IsTruncated": isTruncated = field.text == "true"
            case "NextContinuationToken": continuationToken = field.text
            default: break
            }
        }
    }

    /// `2026-11-27T19:20:00.000Z`, with or without fractions.
    static func date(_ text: String) -> Date? {
        let withFractions = ISO8601DateFormatter()
        withFractions.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return withFractions.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}
