import Foundation

/// One schema migration: a file named `NNNN_name.sql`, applied in order of `version`.
public struct Migration: Sendable, Equatable {
    /// The four-digit number, e.g. 1 for `0001_foundation.sql`.
    public let version: Int
    /// The part after the number, e.g. "foundation".
    public let name: String
    /// The file's name, e.g. "0001_foundation.sql"; errors and reports use it.
    public let fileName: String
    public let url: URL
    /// The file's text, run as one script.
    public let sql: String
    /// The file's exact bytes, which its checksum covers.
    let contents: Data

    /// Reads every migration in `directory`, sorted by version.
    ///
    /// Files not ending in `.sql`, hidden files and folders are ignored. A `.sql` file not named
    /// `NNNN_name.sql`, two files with the same number, or a file that is not UTF-8 is an error
    /// naming the file: a migration that is silently skipped is worse than a refusal to start.
    static func load(from directory: URL) throws -> [Migration] {
        let entries: [URL]
        do {
            entries = try FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        } catch {
            throw MigrationError(message: "cannot read the migrations directory \(directory.path): \(error.localizedDescription)")
        }
        var byVersion: [Int: Migration] = [:]
        for url in entries where url.pathExtension == "sql" {
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true { continue }
            let migration = try Migration(url: url)
            if let other = byVersion[migration.version] {
                let pair = [other.fileName, migration.fileName].sorted()
                throw MigrationError(
                    message: "migrations \(pair[0]) and \(pair[1]) have the same number; renumber one of them",
                    fileName: pair[1])
            }
            byVersion[migration.version] = migration
        }
        return byVersion.values.sorted { $0.version < $1.version }
    }

    private init(url: URL) throws {
        let fileName = url.lastPathComponent
        let stem = fileName.dropLast(".sql".count)
        let parts = stem.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }),
              !parts[1].isEmpty, let version = Int(parts[0]) else {
            throw MigrationError(
                message: "migration file \(fileName) is misnamed: expected NNNN_name.sql (four digits, an underscore, a name)",
                fileName: fileName)
        }
        let contents: Data
        do {
            contents = try Data(contentsOf: url)
        } catch {
            throw MigrationError(message: "cannot read migration \(fileName): \(error.localizedDescription)", fileName: fileName)
        }
        guard let sql = String(data: contents, encoding: .utf8) else {
            throw MigrationError(message: "migration \(fileName) is not valid UTF-8", fileName: fileName)
        }
        self.version = version
        self.name = String(parts[1])
        self.fileName = fileName
        self.url = url
        self.sql = sql
        self.contents = contents
    }
}
