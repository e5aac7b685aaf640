import Foundation
import Media
import ReelworkCore
import Synchronization

/// What a `submit` has done so far, kept under the user's state directory so the same command
/// run again (after Ctrl-C, a crash or a lost network) finishes only what is missing, in the
/// same batch. Written after every step, atomically.
struct SubmitJournal: Codable, Sendable {
    /// Per file (absolute path): its size and modification time when hashed, its hash, the upload
    /// in parts under way (resumed from its last part by the next run), and once known the club's
    /// video id.
    struct FileEntry: Codable, Sendable {
        var size: Int64
        var modified: Double
        var hash: String
        var videoId: UUID?
        var uploadId: UUID?
    }

    var batchId: UUID?
    var files: [String: FileEntry] = [:]
    /// File (absolute path) → job id, once the batch has the file's job. Two copies of a clip under
    /// other names are one video but two jobs, each with its own name.
    var jobs: [String: UUID] = [:]

    /// `$XDG_STATE_HOME/reelwork/submit` (default `~/.local/state/reelwork/submit`).
    static var directory: URL {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state")
        return base.appendingPathComponent("reelwork/submit")
    }

    /// The same command (coordinator, club, sport, options, label, files) gives the same key: it
    /// names the journal and is the batch's Idempotency-Key, so even a journal lost after the
    /// batch was made finds that batch again.
    static func key(parts: [String], files: [String]) -> String {
        let hasher = ContentHasher()
        hasher.update(Array((parts + ["--"] + files).joined(separator: "\n").utf8))
        return String(hasher.finalize().prefix(32))
    }

    static func url(for key: String) -> URL { directory.appendingPathComponent("\(key).json") }

    static func load(key: String) -> SubmitJournal? {
        guard let data = FileManager.default.contents(atPath: url(for: key).path) else { return nil }
        return try? ReelworkJSON.decoder.decode(SubmitJournal.self, from: data)
    }

    /// Forgets what the coordinator held (the batch, each file's video, the jobs) and keeps the
    /// hashes: for a coordinator that no longer has the batch (its database was reset).
    mutating func forgetCoordinatorState() {
        batchId = nil
        jobs = [:]
        for path in files.keys {
            files[path]?.videoId = nil
            files[path]?.uploadId = nil
        }
    }

    /// What a run of the same command takes up from this journal, for `files`: "resuming batch
    /// 1a2b3c4d (3 of 5 files sent)"; before its batch is made (Ctrl-C during the uploads),
    /// "resuming an interrupted submit (3 of 5 files sent; …)"; once every file has its job, that
    /// the batch has them all. Nil when nothing was sent yet.
    func resumption(_ files: [String]) -> String? {
        let sent = files.filter { self.files[$0]?.videoId != nil }.count
        let withJobs = files.filter { jobs[$0] != nil }.count
        let counts = "\(sent) of \(files.count) file\(files.count == 1 ? "" : "s") sent"
        guard let batchId else {
            return sent == 0 ? nil : "resuming an interrupted submit (\(counts); the batch is made once the rest are)"
        }
        let batch = "batch \(String(batchId.uuidString.lowercased().prefix(8)))"
        if withJobs == files.count { return "\(batch) has a job for every file already (\(counts) by an earlier run)" }
        return "resuming \(batch) (\(counts))"
    }

    func save(key: String) throws {
        try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
        try ReelworkJSON.encoder.encode(self).write(to: Self.url(for: key), options: .atomic)
    }
}

/// The journal shared by a submit's uploads running at once: each change is saved as it is made,
/// so an upload's id is on disk before its first part leaves.
final class SharedJournal: Sendable {
    let key: String
    private let state: Mutex<SubmitJournal>

    init(_ journal: SubmitJournal, key: String) {
        self.key = key
        self.state = Mutex(journal)
    }

    var journal: SubmitJournal { state.withLock { $0 } }

    func update(_ change: (inout SubmitJournal) -> Void) throws {
        try state.withLock { journal in
            change(&journal)
            try journal.save(key: key)
        }
    }
}
