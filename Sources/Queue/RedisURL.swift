import ReelworkCore

/// Where a Redis server is: parsed from `redis://[:password@]host:port/db`.
public struct RedisURL: Equatable, Sendable {
    public var host: String
    public var port: Int
    public var database: Int
    public var password: String?

    public init(host: String = "127.0.0.1", port: Int = 6379, database: Int = 0, password: String? = nil) {
        self.host = host
        self.port = port
        self.database = database
        self.password = password
    }

    /// Parses a redis:// URL; throws a configuration error that quotes the bad value.
    public init(parsing text: String) throws {
        func bad(_ why: String) -> ReelworkError { .configuration("invalid Redis URL '\(text)': \(why) (expected redis://host:port/db)") }
        guard text.hasPrefix("redis://") else { throw bad("it must start with redis://") }
        var rest = Substring(text.dropFirst("redis://".count))
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let auth = rest[..<at]
            password = auth.split(separator: ":", maxSplits: 1).last.map(String.init)
            rest = rest[rest.index(after: at)...]
        }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let dbText = rest[rest.index(after: slash)...]
            if !dbText.isEmpty {
                guard let db = Int(dbText), db >= 0 else { throw bad("database '\(dbText)' is not a number") }
                database = db
            }
            rest = rest[..<slash]
        }
        var host = String(rest)
        var port = 6379
        if let colon = rest.lastIndex(of: ":") {
            host = String(rest[..<colon])
            guard let p = Int(rest[rest.index(after: colon)...]), (1...65535).contains(p) else { throw bad("bad port") }
            port = p
        }
        guard !host.isEmpty else { throw bad("no host") }
        self.init(host: host, port: port, database: database, password: password)
    }
}
