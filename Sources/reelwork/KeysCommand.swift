import ArgumentParser
import Foundation
import ReelworkCore
import Store

/// `reelwork keys`: API keys, straight in PostgreSQL (REELWORK_DATABASE_URL), so the first
/// operator key can be made before any coordinator runs.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Create, list and revoke API keys.",
        discussion: "Talks to PostgreSQL directly (REELWORK_DATABASE_URL); no coordinator is needed.",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a key and print its secret, once.",
            discussion: """
                Exactly one of --club NAME, --operator, --worker. The secret is printed alone on the last \
                line of stdout (or as "key" with --format json) and cannot be shown again: only its hash is kept.
                """)

        @OptionGroup var options: ConfigOptions
        @Option(help: "A key for this club (1-64 letters, digits, '-', '_', '.'); the club is created on its first key.")
        var club: String?
        @Flag(name: .customLong("operator"), help: "A key that sees and manages every club's work.")
        var isOperator = false
        @Flag(name: .customLong("worker"), help: "A key for workers: reads video content, nothing else.")
        var isWorker = false
        @Option(help: "A note for `keys list` (who holds it, what for).")
        var label: String?
        @Option(help: "text or json.") var format: OutputFormat = .text

        func validate() throws {
            let chosen = [club != nil, isOperator, isWorker].filter { $0 }.count
            if chosen != 1 {
                throw ValidationError(chosen == 0 ? "say which key: --club NAME, --operator or --worker"
                                                  : "choose one of --club NAME, --operator and --worker, not several")
            }
        }

        var role: APIKeyRole { club != nil ? .club : isOperator ? .operator : .worker }

        func run() throws {
            let config = try options.resolve()
            let created = try APIKeyRepository(try PGConnection(config.databaseURL)).create(role: role, club: club, label: label)
            let record = created.record
            if format == .json {
                return try printJSON(CreatedKeyJSON(id: record.id, key: created.key.text, role: record.role, club: record.club))
            }
            let owner = record.club.map { " for club \($0)" } ?? ""
            print("created \(record.role.rawValue) key \(record.id.uuidString.lowercased())\(owner)")
            print("its secret follows; it is shown only now, so store it somewhere safe:")
            print(created.key.text)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List keys, oldest first (never their secrets).")
        @OptionGroup var options: ConfigOptions
        @Option(help: "text or json.") var format: OutputFormat = .text

        func run() throws {
            let config = try options.resolve()
            let keys = try APIKeyRepository(try PGConnection(config.databaseURL)).list()
            if format == .json { return try printJSON(keys) }
            print(Terminal.table(["ID", "PREFIX", "ROLE", "CLUB", "LABEL", "CREATED", "LAST USED", "REVOKED"], keys.map { key in
                [key.id.uuidString.lowercased(), key.prefix + "…", key.role.rawValue, key.club ?? "-", key.label ?? "",
                 ReelworkJSON.formatDate(key.createdAt), key.lastUsedAt.map(ReelworkJSON.formatDate) ?? "never",
                 key.revokedAt.map(ReelworkJSON.formatDate) ?? "-"]
            }))
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key: it stops working at once.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The key's id, as `keys list` shows it.") var id: String

        func run() throws {
            guard let keyId = UUID(uuidString: id) else {
                throw UserFacingError("'\(id)' is not a key id; `reelwork keys list` shows the ids (UUIDs)")
            }
            let config = try options.resolve()
            let record = try APIKeyRepository(try PGConnection(config.databaseURL)).revoke(id: keyId)
            print("revoked \(record.role.rawValue) key \(record.id.uuidString.lowercased()) (\(record.prefix)…) at "
                  + ReelworkJSON.formatDate(record.revokedAt ?? Date()))
        }
    }
}

/// `keys create --format json`: the one place a secret is written out, beside what it opens.
struct CreatedKeyJSON: Encodable {
    let id: UUID
    let key: String
    let role: APIKeyRole
    let club: String?

    private enum CodingKeys: String, CodingKey { case id, key, role, club }

    // Written out by hand so an operator key says "club": null instead of leaving the field out.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(key, forKey: .key)
        try container.encode(role, forKey: .role)
        try container.encode(club, forKey: .club)
    }
}
