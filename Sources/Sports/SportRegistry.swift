import Archery
import Basketball
import Bowling
import ReelworkCore
import SportKit
import Tennis

/// The sports Reelwork analyses, each by its plug-in. Adding a sport: its module (see
/// `SportPlugin`) and one line here. A sport without a plug-in (none today)
/// runs the streamed models only and has no options, rows or pictures.
public enum SportRegistry {
    public static let plugins: [Sport: any SportPlugin] = [
        .archery: ArcheryPlugin(),
        .bowling: BowlingPlugin(),
        .tennis: TennisPlugin(),
        .basketball: BasketballPlugin(),
    ]

    public static func plugin(for sport: Sport) -> (any SportPlugin)? { plugins[sport] }

    /// The sport's typed rows (its plug-in's `table`), for whoever stores its results: the store
    /// links no sport module, so it is handed the table (`RunRepository.complete`).
    public static func table(for sport: Sport) -> ResultTable? { plugin(for: sport)?.table }

    /// The sports with their own correction route (`SportPlugin.confirmationRoute`), by name, so
    /// that the coordinator mounts them in the same order every time.
    public static var confirmationRoutes: [(sport: Sport, route: ConfirmationRoute)] {
        plugins.compactMap { sport, plugin in plugin.confirmationRoute.map { (sport, $0) } }.sorted { $0.sport.rawValue < $1.sport.rawValue }
    }

    /// The sport's part of a run of a job with `options`.
    public static func plan(for sport: Sport, options: JSONValue = .emptyObject) -> SportPlan {
        plugin(for: sport)?.plan(options: options) ?? .visionOnly
    }

    /// The sports whose plug-in has what `has` asks for, for messages: "bowling and tennis".
    public static func names(where has: (any SportPlugin) -> Bool) -> String {
        let names = plugins.values.filter(has).map(\.sport.rawValue).sorted()
        guard names.count > 1 else { return names.first ?? "no sport" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// Checks a new job's options with the sport's own parser (the one its run uses); throws what
    /// the parser throws. Sports without a plug-in take no options.
    public static func checkOptions(_ options: JSONValue, sport: Sport) throws {
        _ = try OptionKeys.refusingUnknown { try plugin(for: sport)?.analysis(options: options) }
    }

    /// Checks options that name pixels (basketball's `hoop`) against the job's video, displayed
    /// `frameWidth` × `frameHeight`; throws what the sport's check throws.
    public static func checkOptions(_ options: JSONValue, sport: Sport, frameWidth: Int, frameHeight: Int) throws {
        try (plugin(for: sport) as? any FrameSizedOptions)?.checkOptions(options, frameWidth: frameWidth, frameHeight: frameHeight)
    }
}
