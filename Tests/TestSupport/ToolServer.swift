import Foundation

/// A test's helper server written in Python (tools/…): started with its standard input held, so
/// it exits when the test lets go of it, and reporting on its first line that it listens. Its
/// records are JSON lines in a file.
public enum ToolServer {
    /// Starts `process` with its input held by `input` and returns its first line of output.
    /// EOF before a whole line means it failed to start.
    public static func start(_ process: Process, input: Pipe) throws -> String {
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line += chunk
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Each complete line of the JSON-lines file at `path` decoded (none when there is no file;
    /// a last line still being written is left for the next read).
    public static func records<T: Decodable>(_ type: T.Type, at path: String) throws -> [T] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        var lines = data.split(separator: UInt8(ascii: "\n"))
        if data.last != UInt8(ascii: "\n"), !lines.isEmpty { lines.removeLast() }
        return try lines.map { try JSONDecoder().decode(T.self, from: Data($0)) }
    }
}
