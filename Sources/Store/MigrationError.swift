import ReelworkCore

/// Why `Migrator` refused to run or stopped. The message names the migration file.
public struct MigrationError: Error, ClassifiedError, CustomStringConvertible {
    public let message: String
    /// The file the error is about, when there is one.
    public let fileName: String?
    /// PostgreSQL's error, when a statement failed.
    public let underlying: PostgresError?

    public init(message: String, fileName: String? = nil, underlying: PostgresError? = nil) {
        self.message = message
        self.fileName = fileName
        self.underlying = underlying
    }

    /// Transient when the database went away mid-run (running again can succeed); otherwise a
    /// problem with the migration files themselves, which a fixed deploy solves.
    public var kind: ErrorKind { underlying?.kind == .transient ? .transient : .internal }

    public var description: String { message }
}
