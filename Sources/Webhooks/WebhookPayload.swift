import Foundation
import ReelworkCore

/// The body of a delivery: `{"type", "timestamp", "data"}` (Standard Webhooks' shape), under
/// `maxBytes` whatever `data` holds. Receivers often sit behind proxies with small body limits,
/// and a summary with links is what they need; the full result is one request away.
public enum WebhookPayload {
    /// Under 20 KB however it is counted (20 × 1000 < 20 × 1024).
    public static let maxBytes = 20_000

    /// The body to send. `timestamp` is when the event happened (the same for every attempt);
    /// `data["links"]` values that are paths (`/v1/jobs/…`) become absolute under `baseURL`.
    /// The result is at most `maxBytes` long (the last reduction is `{"truncated": true}`).
    public static func body(type: WebhookEventType, timestamp: Date, data: JSONValue, baseURL: String?) -> Data {
        let resolved = baseURL.map { resolveLinks(in: data, baseURL: $0) } ?? data
        let body = fitted(resolved) { envelope(type: type, timestamp: timestamp, data: $0) }
        assert(body.count <= maxBytes, "a webhook body of \(body.count) bytes passed the \(maxBytes)-byte bound")
        return body
    }

    /// `data` cut down until `encode` of it is at most `maxBytes`: long strings shortened first,
    /// then nested values dropped (scalars and `links` stay), then everything but `links`. A
    /// shortened value says so with `"truncated": true` at the top of `data`.
    static func fitted(_ data: JSONValue, encode: (JSONValue) -> Data) -> Data {
        let full = encode(data)
        if full.count <= maxBytes { return full }
        let attempts: [(JSONValue) -> JSONValue] = [
            { shortenStrings($0, to: 1_000) },
            { shortenStrings($0, to: 200) },
            { keepTopLevel($0) { key, value in key == "links" || !value.isContainer } },
            { keepTopLevel($0) { key, _ in key == "links" } },
            { _ in .emptyObject },
        ]
        for reduce in attempts {
            let body = encode(marked(reduce(shortenStrings(data, to: 10_000))))
            if body.count <= maxBytes { return body }
        }
        return encode(.object(["truncated": .bool(true)]))
    }

    static func envelope(type: WebhookEventType, timestamp: Date, data: JSONValue) -> Data {
        let value = JSONValue.object(["type": .string(type.rawValue), "timestamp": .string(Self.timestamp(timestamp)), "data": data])
        return Data(value.jsonString().utf8)
    }

    /// RFC 3339 in UTC with milliseconds, as the specification's examples show.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!))
    }

    static func resolveLinks(in data: JSONValue, baseURL: String) -> JSONValue {
        guard case .object(var fields) = data, case .object(let links)? = fields["links"] else { return data }
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        fields["links"] = .object(links.mapValues { link in
            if case .string(let path) = link, path.hasPrefix("/") { return .string(base + path) }
            return link
        })
        return .object(fields)
    }

    private static func marked(_ data: JSONValue) -> JSONValue {
        guard case .object(var fields) = data else { return .object(["truncated": .bool(true)]) }
        fields["truncated"] = .bool(true)
        return .object(fields)
    }

    private static func shortenStrings(_ value: JSONValue, to limit: Int) -> JSONValue {
        switch value {
        case .string(let text) where text.unicodeScalars.count > limit:
            return .string(String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))) + "…")
        case .array(let items): return .array(items.map { shortenStrings($0, to: limit) })
        case .object(let fields): return .object(fields.mapValues { shortenStrings($0, to: limit) })
        default: return value
        }
    }

    private static func keepTopLevel(_ value: JSONValue, _ keep: (String, JSONValue) -> Bool) -> JSONValue {
        guard case .object(let fields) = value else { return .emptyObject }
        return .object(fields.filter { keep($0.key, $0.value) })
    }
}

extension JSONValue {
    var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}
