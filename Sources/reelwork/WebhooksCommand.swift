import ArgumentParser
import Foundation
import ReelworkClient
import ReelworkCore

struct WebhooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhooks", abstract: "Register webhook endpoints, rotate their secrets, see and resend their deliveries.",
        subcommands: [Create.self, List.self, Delete.self, Rotate.self, Deliveries.self, Redeliver.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an endpoint for your club's events.",
            discussion: "Prints the signing secret (whsec_…) alone on the last line of stdout: it is shown this once. "
                + "Events: \(WebhookEventType.allCases.map(\.rawValue).joined(separator: ", ")).")
        @OptionGroup var client: ClientOptions
        @Argument(help: "Where deliveries are POSTed (http or https).") var url: String
        @Option(name: .customLong("event"), help: "An event to send (repeat it for several; default: all of them).")
        var events: [String] = []
        @Option(help: "The club (operator keys only; a club key's own club otherwise).") var club: String?
        @Option(help: "text or json.") var format: OutputFormat = .text

        func run() async throws {
            let chosen = events.isEmpty ? WebhookEventType.allCases.map(\.rawValue) : events
            let created = try await client.client().createWebhook(CreateWebhookRequest(url: url, events: chosen, club: club))
            if format == .json { return try printJSON(created) }
            print(Terminal.table(WebhookText.header, [WebhookText.row(created.webhook)]))
            print(created.secret)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List webhook endpoints, newest first.")
        @OptionGroup var client: ClientOptions
        @Option(help: "Only this club's (operator keys).") var club: String?
        @Option(help: "Page size.") var limit: Int = 50
        @Option(help: "text or json.") var format: OutputFormat = .text

        func run() async throws {
            let page = try await client.client().webhooks(club: club, limit: limit)
            if format == .json { return try printJSON(page) }
            print(Terminal.table(WebhookText.header, page.webhooks.map(WebhookText.row)))
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an endpoint with its deliveries.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "Endpoint id.") var id: String

        func run() async throws {
            try await client.client().deleteWebhook(try parseID(id, "webhook"))
            print("deleted webhook \(id)")
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give an endpoint a new signing secret.",
            discussion: "The old secret keeps signing beside the new one for the coordinator's grace period "
                + "(REELWORK_WEBHOOK_ROTATION_GRACE_SECONDS). Prints the new secret alone on the last line of stdout.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "Endpoint id.") var id: String
        @Option(help: "text or json.") var format: OutputFormat = .text

        func run() async throws {
            let rotated = try await client.client().rotateWebhookSecret(try parseID(id, "webhook"))
            if format == .json { return try printJSON(rotated) }
            if let until = rotated.webhook.previousSecretExpiresAt {
                print("the previous secret signs too until \(ReelworkJSON.formatDate(until))")
            }
            print(rotated.secret)
        }
    }

    struct Deliveries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "An endpoint's deliveries, newest first, with their attempts.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "Endpoint id.") var id: String
        @Option(help: "Page size (at most 100).") var limit: Int = 50
        @Option(help: "text or json.") var format: OutputFormat = .text

        func run() async throws {
            let page = try await client.client().webhookDeliveries(try parseID(id, "webhook"), limit: limit)
            if format == .json { return try printJSON(page) }
            print(Terminal.table(["delivery", "event", "status", "attempts", "last answer", "next attempt", "created"], page.deliveries.map { d in
                let last = d.attempts.last.map { a in a.statusCode.map { "HTTP \($0)" } ?? (a.error ?? "") } ?? ""
                let next = d.status == .pending ? d.nextAttemptAt.map(ReelworkJSON.formatDate) ?? "now" : "-"
                return [d.id, d.eventType.rawValue, d.status.rawValue, String(d.attempts.count), last, next, ReelworkJSON.formatDate(d.createdAt)]
            }))
        }
    }

    struct Redeliver: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send a finished delivery again (the same webhook-id), or with --now a pending one at once.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "Endpoint id.") var id: String
        @Argument(help: "Delivery id (msg_…).") var delivery: String
        @Flag(help: "A pending delivery: make its next attempt now instead of when its retry schedule says.") var now = false

        func run() async throws {
            let resent = try await client.client().redeliverWebhook(try parseID(id, "webhook"), delivery: delivery, now: now)
            print(now ? "delivery \(resent.id) is \(resent.status.rawValue): its next attempt is due now" : "delivery \(resent.id) is \(resent.status.rawValue) again")
        }
    }
}

/// How webhook endpoints read in a terminal.
enum WebhookText {
    static let header = ["webhook", "club", "url", "events", "state"]

    static func row(_ w: WebhookEndpointRecord) -> [String] {
        [w.id.uuidString.lowercased(), w.club, w.url, w.events.map(\.rawValue).joined(separator: ","),
         w.disabledReason.map { "disabled: \($0)" } ?? "active"]
    }
}
