import Crypto
import Foundation

/// AWS Signature Version 4 (AWS4-HMAC-SHA256), as S3 and every S3-compatible store check it: the
/// `Authorization` header of a request we send, and presigned URLs that let FFmpeg (or a client)
/// make one request without our credentials. Paths are encoded once, as S3 wants (other AWS
/// services encode twice; we only talk to S3).
public struct SignatureV4: Sendable {
    public var accessKeyID: String
    public var secretAccessKey: String
    public var region: String
    public var service: String

    public static let algorithm = "AWS4-HMAC-SHA256"
    /// The payload hash of a request whose body is not signed (presigned URLs; streamed parts).
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// The longest validity S3 accepts for a presigned URL: seven days.
    public static let maxPresignSeconds = 604_800

    public init(accessKeyID: String, secretAccessKey: String, region: String, service: String = "s3") {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.region = region
        self.service = service
    }

    /// The headers to send with a request: `headers` (which must include `host`) plus `x-amz-date`,
    /// `x-amz-content-sha256` when `sendsPayloadHash` (S3 requires it), and `authorization`.
    /// Names come back lower-case.
    public func signedHeaders(method: String, url: URL, headers: [String: String], payloadHash: String,
                              date: Date, sendsPayloadHash: Bool = true) -> [String: String] {
        var all = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        all["x-amz-date"] = Self.timestamp(date)
        if sendsPayloadHash { all["x-amz-content-sha256"] = payloadHash }
        let names = all.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(Self.trimmed(all[$0]!))\n" }.joined()
        let request = [method, Self.canonicalPath(url), Self.canonicalQuery(url), canonicalHeaders, names.joined(separator: ";"), payloadHash]
            .joined(separator: "\n")
        let signature = sign(canonicalRequest: request, date: date)
        all["authorization"] = "\(Self.algorithm) Credential=\(accessKeyID)/\(scope(date)), SignedHeaders=\(names.joined(separator: ";")), "
            + "Signature=\(signature)"
        return all
    }

    /// `url` with the query parameters that authorise one `method` request on it for `seconds`
    /// (1 to seven days) from `date`, signing only the `host` header.
    public func presignedURL(method: String, url: URL, seconds: Int, date: Date) -> URL {
        var parts = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        var query = Self.queryPairs(url)
        query.append(("X-Amz-Algorithm", Self.algorithm))
        query.append(("X-Amz-Credential", "\(accessKeyID)/\(scope(date))"))
        query.append(("X-Amz-Date", Self.timestamp(date)))
        query.append(("X-Amz-Expires", String(min(max(seconds, 1), Self.maxPresignSeconds))))
        query.append(("X-Amz-SignedHeaders", "host"))
        let canonicalQuery = Self.canonical(query)
        let request = [method, Self.canonicalPath(url), canonicalQuery, "host:\(Self.hostHeader(url))\n", "host", Self.unsignedPayload]
            .joined(separator: "\n")
        let signature = sign(canonicalRequest: request, date: date)
        parts.percentEncodedQuery = canonicalQuery + "&X-Amz-Signature=\(signature)"
        return parts.url!
    }

    /// `host` or `host:port` when the port is not the scheme's default: what an HTTP client sends.
    public static func hostHeader(_ url: URL) -> String {
        let host = url.host ?? ""
        guard let port = url.port else { return host }
        let isDefault = (url.scheme?.lowercased() == "https" && port == 443) || (url.scheme?.lowercased() == "http" && port == 80)
        return isDefault ? host : "\(host):\(port)"
    }

    /// Lower-case hex SHA-256 of `data`.
    public static func hexSHA256(_ data: some DataProtocol) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    // MARK: - The steps of the algorithm

    func scope(_ date: Date) -> String {
        "\(Self.timestamp(date).prefix(8))/\(region)/\(service)/aws4_request"
    }

    func sign(canonicalRequest: String, date: Date) -> String {
        let stringToSign = [Self.algorithm, Self.timestamp(date), scope(date), Self.hexSHA256(Data(canonicalRequest.utf8))]
            .joined(separator: "\n")
        var key = SymmetricKey(data: Data("AWS4\(secretAccessKey)".utf8))
        for part in [String(Self.timestamp(date).prefix(8)), region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key).map { String(format: "%02x", $0) }.joined()
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    /// The path, each segment percent-encoded once (the URL's own escapes undone first).
    static func canonicalPath(_ url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        guard !path.isEmpty else { return "/" }
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { encode(String($0).removingPercentEncoding ?? String($0)) }
            .joined(separator: "/")
    }

    static func canonicalQuery(_ url: URL) -> String {
        canonical(queryPairs(url))
    }

    /// The query's name-value pairs, decoded.
    static func queryPairs(_ url: URL) -> [(String, String)] {
        guard let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in String(text).removingPercentEncoding ?? String(text) }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// Pairs encoded and sorted by name, then value: `a=1&b=2`.
    static func canonical(_ pairs: [(String, String)]) -> String {
        let encoded: [(name: String, value: String)] = pairs.map { (encode($0.0), encode($0.1)) }
        let sorted = encoded.sorted { left, right in left.name == right.name ? left.value < right.value : left.name < right.name }
        return sorted.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~")

    /// RFC 3986 encoding: everything but the unreserved characters, upper-case hex.
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// Leading and trailing spaces removed, inner runs of spaces made one.
    static func trimmed(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
