import Foundation

/// Where stored objects (videos) live: a local folder (the default, so one machine needs nothing
/// else) or a bucket of any S3-compatible store. docs/CONFIGURATION.md lists the variables.
public enum StorageSettings: Sendable, Equatable {
    /// The folder `REELWORK_STORAGE_DIR` (`ReelworkConfig.storageDir`).
    case local
    case s3(S3Settings)

    public enum Env {
        public static let backend = "REELWORK_STORAGE"
        public static let endpoint = "REELWORK_S3_ENDPOINT"
        /// The store as clients reach it, when that is not `endpoint` (an address inside a cluster
        /// or a compose network): the URLs clients are handed (upload parts, content redirects) use it.
        public static let publicEndpoint = "REELWORK_S3_PUBLIC_ENDPOINT"
        public static let bucket = "REELWORK_S3_BUCKET"
        public static let region = "REELWORK_S3_REGION"
        public static let pathStyle = "REELWORK_S3_PATH_STYLE"
        /// Seconds of silence after which a request to the store is given up and sent again.
        public static let readTimeoutSeconds = "REELWORK_S3_READ_TIMEOUT_SECONDS"
        /// A file of two lines, `AWS_ACCESS_KEY_ID=…` and `AWS_SECRET_ACCESS_KEY=…` (a mounted secret).
        public static let credentialsFile = "REELWORK_S3_CREDENTIALS_FILE"
        public static let accessKeyID = "AWS_ACCESS_KEY_ID"
        public static let secretAccessKey = "AWS_SECRET_ACCESS_KEY"
    }

    /// Reads the environment; a bad or missing value is an error naming the variable.
    public static func fromEnvironment(_ env: [String: String]) throws -> StorageSettings {
        switch env[Env.backend].flatMap({ $0.isEmpty ? nil : $0.lowercased() }) ?? "local" {
        case "local": return .local
        case "s3": return .s3(try S3Settings.fromEnvironment(env))
        case let other: throw ReelworkError.configuration("\(Env.backend)='\(other)' must be local or s3")
        }
    }
}

/// An S3-compatible bucket and the credentials that sign requests to it (AWS Signature V4).
public struct S3Settings: Sendable, Equatable {
    /// `scheme://host[:port]` of the store, e.g. `https://s3.eu-west-1.amazonaws.com` or `http://127.0.0.1:9000`.
    public var endpoint: URL
    public var bucket: String
    public var region: String
    /// Address the bucket as `endpoint/bucket/key` (MinIO, rclone, Ceph) instead of `bucket.endpoint/key`.
    public var pathStyle: Bool
    public var accessKeyID: String
    public var secretAccessKey: String
    /// `scheme://host[:port]` of the store as clients reach it; nil: `endpoint`.
    public var publicEndpoint: URL?
    /// A try that hears nothing from the store for this long is given up (and sent again, up to the
    /// store client's three tries). A store answers within seconds of a request's last byte, so the
    /// default leaves room for a slow one; at most 19 s, so that all three tries still end within the
    /// minute an API client waits for an answer (`readTimeoutRange`).
    public var readTimeoutSeconds: Double

    public static let defaultRegion = "us-east-1"
    public static let defaultReadTimeoutSeconds = 15.0
    public static let readTimeoutRange = 1.0...19.0

    public init(
        endpoint: URL, bucket: String, region: String = defaultRegion, pathStyle: Bool,
        accessKeyID: String, secretAccessKey: String, publicEndpoint: URL? = nil,
        readTimeoutSeconds: Double = defaultReadTimeoutSeconds
    ) {
        self.endpoint = endpoint
        self.readTimeoutSeconds = readTimeoutSeconds
        self.publicEndpoint = publicEndpoint
        self.bucket = bucket
        self.region = region
        self.pathStyle = pathStyle
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
    }

    typealias Env = StorageSettings.Env

    static func fromEnvironment(_ env: [String: String]) throws -> S3Settings {
        func required(_ name: String) throws -> String {
            guard let value = env[name], !value.isEmpty else {
                throw ReelworkError.configuration("\(name) is required when \(Env.backend)=s3")
            }
            return value
        }
        let endpoint = try Self.endpoint(try required(Env.endpoint))
        let bucket = try required(Env.bucket)
        guard Self.isValidBucketName(bucket) else {
            throw ReelworkError.configuration(
                "\(Env.bucket)='\(bucket.prefix(80))' is not a bucket name (3–63 lower-case letters, digits, dots and hyphens, "
                    + "starting and ending with a letter or digit)")
        }
        let region = env[Env.region].flatMap { $0.isEmpty ? nil : $0 } ?? defaultRegion
        guard region.count <= 32, region.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else {
            throw ReelworkError.configuration("\(Env.region)='\(region.prefix(40))' is not a region name (lower-case letters, digits and hyphens)")
        }
        let pathStyle = try ReelworkConfig.flag(Env.pathStyle, env[Env.pathStyle])
        let (keyID, secret) = try credentials(env)
        let publicEndpoint = try env[Env.publicEndpoint].flatMap { $0.isEmpty ? nil : try Self.endpoint($0, variable: Env.publicEndpoint) }
        var readTimeout = defaultReadTimeoutSeconds
        try ReelworkConfig.seconds(Env.readTimeoutSeconds, env, &readTimeout, in: readTimeoutRange)
        return S3Settings(
            endpoint: endpoint, bucket: bucket, region: region, pathStyle: pathStyle, accessKeyID: keyID, secretAccessKey: secret,
            publicEndpoint: publicEndpoint, readTimeoutSeconds: readTimeout)
    }

    /// From the credentials file when one is named, else from the two AWS variables.
    static func credentials(_ env: [String: String]) throws -> (String, String) {
        var source = env
        var origin = "the environment"
        if let path = env[Env.credentialsFile], !path.isEmpty {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ReelworkError.configuration("\(Env.credentialsFile)='\(path)' cannot be read")
            }
            source = [:]
            for line in text.split(whereSeparator: \.isNewline) {
                let parts = line.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                source[parts[0].trimmingCharacters(in: .whitespaces)] = parts[1].trimmingCharacters(in: .whitespaces)
            }
            origin = path
        }
        guard let keyID = source[Env.accessKeyID], !keyID.isEmpty, let secret = source[Env.secretAccessKey], !secret.isEmpty else {
            throw ReelworkError.configuration(
                "\(Env.accessKeyID) and \(Env.secretAccessKey) are required when \(Env.backend)=s3 (none found in \(origin))")
        }
        guard keyID.count <= 128, secret.count <= 256, !keyID.contains(where: { $0.isWhitespace || $0 == "/" }) else {
            throw ReelworkError.configuration(
                "\(Env.accessKeyID) or \(Env.secretAccessKey) in \(origin) is not a key (too long, or a space or '/' in the key id)")
        }
        return (keyID, secret)
    }

    /// An http or https URL with a host and nothing after it but an optional `/`.
    static func endpoint(_ text: String, variable: String = Env.endpoint) throws -> URL {
        guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = parts.host, !host.isEmpty, parts.user == nil, parts.query == nil, parts.fragment == nil,
            parts.path.isEmpty || parts.path == "/", let url = URL(string: text.hasSuffix("/") ? String(text.dropLast()) : text)
        else {
            throw ReelworkError.configuration(
                "\(variable)='\(text.prefix(120))' must be an http or https URL of the store with no path, e.g. https://s3.eu-west-1.amazonaws.com")
        }
        return url
    }

    /// S3's rules for bucket names, which every compatible store accepts.
    static func isValidBucketName(_ name: String) -> Bool {
        guard (3...63).contains(name.count), let first = name.first, let last = name.last,
            first.isASCII, last.isASCII, first.isLetter || first.isNumber, last.isLetter || last.isNumber,
            !name.contains("..")
        else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "." || $0 == "-") }
    }
}
