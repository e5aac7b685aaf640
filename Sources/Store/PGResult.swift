/// The outcome of one statement: its rows (empty for commands) and how many rows it touched.
public struct PGResult: Sendable {
    public let rows: [PGRow]
    /// The count from the command tag (PQcmdTuples): rows inserted, updated, deleted, selected
    /// or fetched; 0 for commands that report no count (CREATE, SET, ...).
    public let affectedRows: Int

    public init(rows: [PGRow], affectedRows: Int) {
        self.rows = rows
        self.affectedRows = affectedRows
    }
}
