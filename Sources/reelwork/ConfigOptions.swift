import ArgumentParser
import Foundation
import Logging
import ReelworkCore

/// Flags shared by the commands; each overrides its REELWORK_* environment variable.
struct ConfigOptions: ParsableArguments {
    @Option(name: .customLong("database-url"), help: "PostgreSQL connection string or URL (\(ReelworkConfig.Env.databaseURL)).")
    var databaseURL: String?
    @Option(name: .customLong("redis-url"), help: "redis://host:port/db (\(ReelworkConfig.Env.redisURL)).")
    var redisURL: String?
    @Option(name: .customLong("storage-dir"), help: "Where uploaded videos are stored (\(ReelworkConfig.Env.storageDir)).")
    var storageDir: String?
    @Option(name: .customLong("coordinator-url"), help: "The coordinator's base URL (\(ReelworkConfig.Env.coordinatorURL)).")
    var coordinatorURL: String?
    @Option(name: .customLong("api-key"), help: "The API key to present to the coordinator (\(ReelworkConfig.Env.apiKey)); `reelwork keys create` makes one.")
    var apiKey: String?

    /// Environment first, then flags on top.
    func resolve() throws -> ReelworkConfig {
        var config = try ReelworkConfig.fromEnvironment()
        if let databaseURL { config.databaseURL = databaseURL }
        if let redisURL { config.redisURL = redisURL }
        if let storageDir { config.storageDir = storageDir }
        if let coordinatorURL { config.coordinatorURL = coordinatorURL }
        if let apiKey { config.apiKey = apiKey }
        return config
    }
}

/// Logging to stderr, with the level from LOG_LEVEL (default info).
enum Logs {
    static func bootstrap() {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
            return handler
        }
    }
}

/// Prints a one-line error and exits non-zero, for errors the user can act on.
struct UserFacingError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
