import CLibpq
import Foundation
import Metrics
import ReelworkCore

/// One PostgreSQL session (a libpq `PGconn`).
///
/// Calls block the calling thread until the server answers, so never use a connection from
/// Swift's cooperative threads: go through `PGPool`, which runs them on its own threads.
/// A connection is not thread-safe; use it from one thread at a time.
public final class PGConnection {
    private let handle: OpaquePointer

    /// Connects and prepares the session: client_encoding=UTF8 (Swift strings are UTF-8),
    /// TimeZone=UTC and DateStyle=ISO (so `PGRow.date` reads predictable text), and
    /// application_name=reelwork unless `conninfo` names one itself.
    ///
    /// - Parameter conninfo: a libpq key=value string ("host=… dbname=…") or a postgres:// URL.
    /// - Throws: `PostgresError` (kind `.transient`) with libpq's message if the server cannot be
    ///   reached, refuses the login or the session cannot be prepared.
    public init(_ conninfo: String) throws {
        // expand_dbname=1 lets "dbname" carry a whole conninfo string or URL; keywords after it
        // override what it says, which is why client_encoding comes last.
        let keywords = ["dbname", "fallback_application_name", "client_encoding"]
        let values = [conninfo, "reelwork", "UTF8"]
        let connection = PGConnection.withCStrings(keywords) { keywordPointers in
            PGConnection.withCStrings(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let connection else {
            throw PostgresError(message: "libpq could not allocate a connection", sqlState: nil, connectionFailure: true)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let error = PGResultReader.connectionError(connection, fallback: "could not connect to PostgreSQL")
            PQfinish(connection)
            throw error
        }
        handle = connection
        // Without a processor libpq prints NOTICEs ("relation already exists, skipping") and
        // asynchronous FATALs (server shutting down) to stderr. Failures that matter surface as
        // errors of the call they belong to, so the notices themselves are dropped.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        do {
            try execute("SET TimeZone TO 'UTC'; SET DateStyle TO 'ISO, YMD'")
        } catch let error as PostgresError {
            // The session is unusable as promised; report it like a failed connect.
            throw PostgresError(message: error.message, sqlState: error.sqlState, connectionFailure: true)
        }
    }

    deinit {
        PQfinish(handle)
    }

    /// True while libpq considers the connection open (PQstatus == CONNECTION_OK). libpq only
    /// notices a dead server when a call fails, so this can be true for a connection the server
    /// has already closed; see `checkAlive()`.
    public var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Runs one statement with text parameters `$1, $2, …`; nil binds NULL.
    ///
    /// Parameters are never interpolated into the SQL, so any value (quotes, unicode) is safe.
    /// The statement is prepared on this session the first time its text is seen and executed
    /// from then on (see `preparedStatementLimit`): a worker runs the same few statements for
    /// every job, and without this the server parsed, analysed and planned each one every time,
    /// about half of its CPU in the queue benchmark (docs/benchmarks/queue.md).
    /// - Throws: `PostgresError` with the server's message and SQLSTATE.
    @discardableResult
    public func query(_ sql: String, _ params: [(any PGParam)?] = []) throws -> PGResult {
        try rejectNulBytes(in: sql, what: "the SQL text")
        let texts = params.map { $0?.pgText }
        for (position, text) in texts.enumerated() {
            if let text { try rejectNulBytes(in: text, what: "parameter $\(position + 1)") }
        }
        // strdup'd copies so every pointer stays valid for the whole call; freed right after.
        let copies = texts.map { $0.flatMap { strdup($0) } }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { $0.map { UnsafePointer($0) } }
        let wasIdle = isIdle
        let started = ContinuousClock.now
        defer { Self.roundTrip.record(duration: ContinuousClock.now - started) }
        do {
            return try run(sql, pointers)
        } catch let error as PostgresError where error.isStalePreparedStatement {
            // The table under a prepared `SELECT *` changed shape (a migration ran): forget the
            // statement. Outside a transaction nothing ran, so running it afresh is safe; inside
            // one, the transaction is already aborted and the caller must start over.
            preparedNames[sql] = nil
            guard wasIdle else { throw error }
            return try run(sql, pointers)
        }
    }

    /// Beyond this many distinct statement texts a session runs new ones unprepared, so code
    /// that builds SQL from filters cannot grow the server's memory without bound.
    static let preparedStatementLimit = 200

    /// Statements prepared on this session: SQL text → statement name.
    private var preparedNames: [String: String] = [:]
    private var nextStatementNumber = 0

    private func run(_ sql: String, _ pointers: [UnsafePointer<CChar>?]) throws -> PGResult {
        let count = Int32(pointers.count)
        var name = preparedNames[sql]
        if name == nil, preparedNames.count < Self.preparedStatementLimit {
            let fresh = "reelwork_\(nextStatementNumber)"
            nextStatementNumber += 1
            // Parameter types are inferred by the server, exactly as for PQexecParams.
            _ = try consume(PQprepare(handle, fresh, sql, 0, nil))
            preparedNames[sql] = fresh
            name = fresh
        }
        guard let name else { return try consume(PQexecParams(handle, sql, count, nil, pointers, nil, nil, 0)) }
        return try consume(PQexecPrepared(handle, name, count, pointers, nil, nil, 0))
    }

    /// How many statements this session has prepared (for tests).
    var preparedStatementCount: Int { preparedNames.count }

    /// Runs a script that may hold several statements separated by semicolons (PQexec), e.g. a
    /// migration. Without an explicit BEGIN the server runs them as one implicit transaction.
    /// - Throws: `PostgresError` for the first statement that fails.
    public func execute(_ sql: String) throws {
        try rejectNulBytes(in: sql, what: "the SQL text")
        let started = ContinuousClock.now
        defer { Self.roundTrip.record(duration: ContinuousClock.now - started) }
        _ = try consume(PQexec(handle, sql))
    }

    /// Every statement's time from send to result (`reelwork_postgres_roundtrip_seconds`); a
    /// statement's first run on a session includes preparing it.
    static let roundTrip = Metrics.Timer(label: MetricName.postgresRoundTrip)

    /// Runs `body` inside a transaction: COMMIT if it returns, ROLLBACK if it throws (the
    /// original error is rethrown). Called inside another `transaction`, it uses a savepoint,
    /// so the inner body's changes are undone on throw without aborting the outer one.
    ///
    /// If `body` swallowed a failed statement the transaction is already aborted; it is then
    /// rolled back and an error is thrown rather than pretending COMMIT succeeded.
    public func transaction<T>(_ body: (PGConnection) throws -> T) throws -> T {
        try transaction(beginning: "BEGIN", body)
    }

    /// `transaction`, begun (when not nested) with `begin`.
    private func transaction<T>(beginning begin: String, _ body: (PGConnection) throws -> T) throws -> T {
        let nested = PQtransactionStatus(handle) != PQTRANS_IDLE
        let savepoint = "reelwork_sp_\(savepointDepth)"
        try execute(nested ? "SAVEPOINT \(savepoint)" : begin)
        if nested { savepointDepth += 1 }
        defer { if nested { savepointDepth -= 1 } }
        let value: T
        do {
            value = try body(self)
        } catch {
            // The original error is what the caller needs; a failed ROLLBACK on a broken
            // connection adds nothing (the server discards the transaction anyway).
            try? execute(nested ? "ROLLBACK TO SAVEPOINT \(savepoint); RELEASE SAVEPOINT \(savepoint)" : "ROLLBACK")
            throw error
        }
        if PQtransactionStatus(handle) == PQTRANS_INERROR {
            try? execute(nested ? "ROLLBACK TO SAVEPOINT \(savepoint); RELEASE SAVEPOINT \(savepoint)" : "ROLLBACK")
            throw PostgresError(message: "a statement in the transaction failed and its error was ignored; rolled back")
        }
        try execute(nested ? "RELEASE SAVEPOINT \(savepoint)" : "COMMIT")
        return value
    }

    private var savepointDepth = 0

    /// Runs the reads in `body` against one snapshot of the database (a read-only REPEATABLE READ
    /// transaction), so rows read by separate statements belong together: a row and its children
    /// read in two queries cannot straddle another session's commit. Inside another transaction
    /// it runs as part of that one (its isolation is already fixed).
    public func snapshot<T>(_ body: (PGConnection) throws -> T) throws -> T {
        guard PQtransactionStatus(handle) == PQTRANS_IDLE else { return try body(self) }
        return try transaction(beginning: "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", body)
    }

    // MARK: - For the pool

    /// Whether the connection is still usable, checked without a round trip: reads whatever the
    /// server sent while the connection sat idle, which is how libpq notices a server that
    /// closed the session (pg_terminate_backend, restart).
    func checkAlive() -> Bool {
        guard isHealthy else { return false }
        // The first read can return just the server's FATAL message; the end of the stream
        // is only seen by the next one. Both reads return at once: libpq's socket is non-blocking.
        guard PQconsumeInput(handle) != 0, PQconsumeInput(handle) != 0 else { return false }
        return isHealthy
    }

    /// Whether the session is outside any transaction block, so another caller can use it.
    var isIdle: Bool { PQtransactionStatus(handle) == PQTRANS_IDLE }

    // MARK: - Private

    /// Turns a result into rows or an error, always freeing it.
    private func consume(_ result: OpaquePointer?) throws -> PGResult {
        guard let result else {
            throw PGResultReader.connectionError(handle, fallback: "PostgreSQL returned no result")
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return PGResultReader.rows(of: result)
        case PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_COPY_BOTH:
            abandonCopy(PQresultStatus(result))
            throw PostgresError(message: "COPY is not supported by PGConnection")
        default:
            throw PGResultReader.error(of: result, on: handle)
        }
    }

    /// Leaves COPY mode so the connection stays usable for the next call.
    private func abandonCopy(_ status: ExecStatusType) {
        if status == PGRES_COPY_IN {
            _ = PQputCopyEnd(handle, "COPY is not supported by PGConnection")
        } else if status == PGRES_COPY_OUT {
            var buffer: UnsafeMutablePointer<CChar>?
            while PQgetCopyData(handle, &buffer, 0) > 0 {
                PQfreemem(buffer)
                buffer = nil
            }
        }
        // COPY BOTH (replication) has no clean exit; the results below end it or the status
        // turns bad and the pool drops the connection.
        while let pending = PQgetResult(handle) {
            PQclear(pending)
        }
    }

    /// libpq takes C strings: a NUL byte would silently cut the value short. PostgreSQL text
    /// cannot hold NUL either, so refuse with the SQLSTATE the server itself uses for it.
    private func rejectNulBytes(in text: String, what: String) throws {
        if text.utf8.contains(0) {
            throw PostgresError(message: "\(what) contains a NUL byte, which PostgreSQL text cannot hold", sqlState: "22021")
        }
    }

    /// Calls `body` with a NULL-terminated array of C strings that live for the call.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies.map { $0.map { UnsafePointer($0) } } + [nil])
    }
}
