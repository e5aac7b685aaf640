import Foundation
import ReelworkCore
import Sports

/// Which sport and options each file of a `submit` is analysed with, and the batches that makes:
/// one per sport and options, so a season folder may mix sports.
///
/// For each file, the first of these that says:
/// 1. the manifest (`--manifest FILE`): a JSON array of `{"file", "sport"?, "options"?}`, paths
///    relative to the manifest's folder;
/// 2. a sidecar beside the clip, `clip.options.json` (or `clip.mp4.options.json`): its options;
/// 3. the command's `--sport` and `--options`.
struct SubmitPlan {
    static let sidecarSuffix = ".options.json"

    struct Group {
        var sport: String
        var options: JSONValue
        var files: [String]
    }

    /// One manifest line.
    struct Entry: Decodable {
        var file: String
        var sport: String?
        var options: JSONValue?
    }

    /// The manifest's files (absolute paths), in its order.
    private(set) var paths: [String] = []
    /// Each file's manifest entry (a file named twice: its last entry).
    private var entries: [String: Entry] = [:]

    static func loadManifest(_ path: String) throws -> SubmitPlan {
        guard let data = FileManager.default.contents(atPath: path) else { throw UserFacingError("cannot read manifest \(path)") }
        let entries: [Entry]
        do { entries = try ReelworkJSON.decoder.decode([Entry].self, from: data) } catch {
            throw UserFacingError("manifest \(path) must be a JSON array of {\"file\", \"sport\"?, \"options\"?} objects")
        }
        let folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
        var plan = SubmitPlan()
        for (index, entry) in entries.enumerated() {
            if let sport = entry.sport, (try? Sport.parse(sport)) == nil {
                throw UserFacingError("manifest \(path), entry \(index + 1) (\(entry.file)): unknown sport '\(sport)'; expected one of: \(SportRegistry.sportNames)")
            }
            if let options = entry.options, options != .null {
                guard case .object = options else { throw UserFacingError("manifest \(path), entry \(index + 1) (\(entry.file)): options must be a JSON object") }
            }
            let absolute = entry.file.hasPrefix("/") ? URL(fileURLWithPath: entry.file) : folder.appendingPathComponent(entry.file)
            let file = absolute.standardizedFileURL.path
            plan.paths.append(file)
            plan.entries[file] = entry
        }
        return plan
    }

    /// The files in groups of one sport and options each, in the order their first file comes;
    /// a file with no sport from anywhere is an error naming it (nothing is sent).
    func groups(_ files: [String], sport defaultSport: String?, options defaultOptions: JSONValue?) throws -> [Group] {
        var groups: [Group] = []
        for file in files {
            let line = entries[file]
            guard let sport = (line?.sport ?? defaultSport).map({ $0.lowercased() }) else {
                throw UserFacingError("\(file) has no sport: give --sport, or name it in the manifest")
            }
            let options = try line?.options.flatMap { $0 == .null ? nil : $0 } ?? Self.sidecar(of: file) ?? defaultOptions ?? .emptyObject
            if let index = groups.firstIndex(where: { $0.sport == sport && $0.options == options }) {
                groups[index].files.append(file)
            } else {
                groups.append(Group(sport: sport, options: options, files: [file]))
            }
        }
        return groups
    }

    /// The clip's options from `clip.options.json` or `clip.mp4.options.json` beside it, if either exists.
    static func sidecar(of file: String) throws -> JSONValue? {
        let url = URL(fileURLWithPath: file)
        let candidates = [url.deletingPathExtension().path + sidecarSuffix, url.path + sidecarSuffix]
        guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else { return nil }
        return try OptionsFile.load(path)
    }
}
