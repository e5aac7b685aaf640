import Foundation
import Media
import ReelworkCore

/// The files a `submit` sends: the paths given, folders walked with `--recursive`, hidden files
/// left out, and files that are not videos skipped with the reason.
enum SubmitFiles {
    struct Skipped {
        let path: String
        let reason: String
    }

    /// Absolute paths in a stable order, and what was skipped.
    /// `excluded`: files a folder walk leaves out (the manifest, when it lies in the folder).
    static func collect(_ paths: [String], recursive: Bool, excluded: Set<String> = []) throws -> (files: [String], skipped: [Skipped]) {
        var candidates: [String] = []
        let manager = FileManager.default
        for path in paths {
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
                throw ReelworkError.invalidRequest("\(path) does not exist")
            }
            guard isDirectory.boolValue else { candidates.append(absolute); continue }
            guard recursive else { throw ReelworkError.invalidRequest("\(path) is a folder; add --recursive to send the videos in it") }
            guard let walker = manager.enumerator(atPath: absolute) else { continue }
            for case let relative as String in walker {
                if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
                let file = absolute + "/" + relative
                var dir: ObjCBool = false
                // A clip's options beside it (SubmitPlan reads them) are no video to report as skipped.
                if file.hasSuffix(SubmitPlan.sidecarSuffix) || excluded.contains(file) { continue }
                if manager.fileExists(atPath: file, isDirectory: &dir), !dir.boolValue { candidates.append(file) }
            }
        }
        var seen = Set<String>()
        var files: [String] = [], skipped: [Skipped] = []
        for file in candidates.sorted() where seen.insert(file).inserted {
            do {
                _ = try MediaProbe.probe(file)
                files.append(file)
            } catch {
                skipped.append(Skipped(path: file, reason: "\(error)"))
            }
        }
        return (files, skipped)
    }

    /// The name a file's job is given: its last path component, one line (a control character,
    /// which a file name may hold, becomes "?"), at most the 255 characters the API takes.
    static func jobName(_ path: String) -> String {
        let scalars = URL(fileURLWithPath: path).lastPathComponent.unicodeScalars.prefix(255)
            .map { $0.properties.generalCategory == .control ? "?" : $0 }
        return String(String.UnicodeScalarView(scalars))
    }

    /// SHA-256 of a file, read in 1 MiB pieces.
    static func hash(_ path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ReelworkError.invalidRequest("cannot read \(path)") }
        defer { try? handle.close() }
        let hasher = ContentHasher()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(Array(chunk))
        }
        return hasher.finalize()
    }
}
