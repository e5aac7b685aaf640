import ArgumentParser
import Foundation
import ReelworkClient
import ReelworkCore

struct SubmitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit", abstract: "Upload clips and create one job per clip; prints the job ids.",
        discussion: "Progress goes to stderr; stdout gets one job id per line, so `reelwork submit … | xargs reelwork jobs watch` works.")

    @Argument(help: "Video files to analyse.") var files: [String]
    @Option(help: "Sport: \(Sport.allCases.map(\.rawValue).joined(separator: ", ")).") var sport: String
    @Option(help: "The club the jobs belong to (operator keys only; a club key's jobs are its club's).") var club: String?
    @Option(name: .customLong("options"), help: "A JSON file with the sport's options.") var optionsFile: String?
    @OptionGroup var connection: ClientOptions

    func validate() throws {
        _ = try Sport.parse(sport)
        for file in files where !FileManager.default.isReadableFile(atPath: file) {
            throw ValidationError("cannot read \(file)")
        }
    }

    func run() async throws {
        let client = try connection.client()
        let options = try optionsFile.map(OptionsFile.load) ?? .emptyObject
        var failures = 0
        for (index, path) in files.enumerated() {
            let name = URL(fileURLWithPath: path).lastPathComponent
            let label = "[\(index + 1)/\(files.count)] \(name)"
            do {
                let video = try await client.uploadVideo(file: URL(fileURLWithPath: path)) { sent, total in
                    let fraction = total > 0 ? Double(sent) / Double(total) : 0
                    Terminal.status("\(label) \(Terminal.bar(fraction)) \(Terminal.bytes(sent))/\(Terminal.bytes(total))")
                }
                let job = try await client.createJob(CreateJobRequest(videoId: video.id, sport: sport, club: club, options: options))
                Terminal.status("\(label) uploaded \(Terminal.bytes(video.sizeBytes)), \(String(format: "%.1f", video.facts.durationSeconds)) s → job \(job.id.uuidString.lowercased())", final: true)
                print(job.id.uuidString.lowercased())
            } catch {
                failures += 1
                Terminal.status("\(label) failed: \(error)", final: true)
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}

/// Reads a sport options JSON file, which must hold one object.
enum OptionsFile {
    static func load(_ path: String) throws -> JSONValue {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("cannot read options file \(path)") }
        let value: JSONValue
        do { value = try ReelworkJSON.decoder.decode(JSONValue.self, from: data) } catch {
            throw ValidationError("options file \(path) is not valid JSON")
        }
        guard case .object = value else { throw ValidationError("options file \(path) must hold a JSON object") }
        return value
    }
}
