import CLibpq
import Foundation

/// Copies a libpq result into Swift values, or turns it into a `PostgresError`.
///
/// Works on a result the caller owns; the caller frees it with PQclear.
enum PGResultReader {
    /// PG_DIAG_SQLSTATE is a character-literal macro ('C'), which Swift does not import.
    private static let sqlStateField = Int32(UInt8(ascii: "C"))

    /// Rows and the affected-row count of a successful result.
    static func rows(of result: OpaquePointer) -> PGResult {
        let columnCount = Int(PQnfields(result))
        let rowCount = Int(PQntuples(result))
        var index: [String: Int] = [:]
        for column in 0..<columnCount {
            let name = String(cString: PQfname(result, Int32(column)))
            if index[name] == nil { index[name] = column }
        }
        var rows: [PGRow] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(columnCount)
            for column in 0..<columnCount {
                if PQgetisnull(result, Int32(row), Int32(column)) != 0 {
                    values.append(nil)
                } else {
                    values.append(String(cString: PQgetvalue(result, Int32(row), Int32(column))))
                }
            }
            rows.append(PGRow(columnIndex: index, values: values))
        }
        let tag = PQcmdTuples(result).map { String(cString: $0) } ?? ""
        return PGResult(rows: rows, affectedRows: Int(tag) ?? 0)
    }

    /// The error a failed result carries. Falls back to the connection's message when the result
    /// has none (libpq synthesises results for client-side failures such as a lost connection).
    static func error(of result: OpaquePointer, on connection: OpaquePointer) -> PostgresError {
        var message = trimmed(PQresultErrorMessage(result))
        if message.isEmpty { message = trimmed(PQerrorMessage(connection)) }
        if message.isEmpty { message = "PostgreSQL reported \(String(cString: PQresStatus(PQresultStatus(result))))" }
        let sqlState = PQresultErrorField(result, sqlStateField).map { String(cString: $0) }
        return PostgresError(
            message: message, sqlState: sqlState,
            connectionFailure: PQstatus(connection) != CONNECTION_OK)
    }

    /// The connection's last error, for calls that produced no result at all.
    static func connectionError(_ connection: OpaquePointer?, fallback: String) -> PostgresError {
        var message = connection.map { trimmed(PQerrorMessage($0)) } ?? ""
        if message.isEmpty { message = fallback }
        return PostgresError(message: message, sqlState: nil, connectionFailure: true)
    }

    static func trimmed(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
