import Archery
import Basketball
import Bowling
import ReelworkCore
import SportKit
import Tennis

/// The sports Reelwork analyses, each by its plug-in. Adding a sport: its module (see
/// `SportPlugin`) and one line here. The registry is the one list of what this build knows: its
/// sports (`Sport` is open: its constants live in the sports' modules) and its stages (`StageName`
/// likewise), which the API's names are checked against.
public enum SportRegistry {
    /// Every sport's plug-in, in the order messages and help texts list the sports ("expected one
    /// of: tennis, bowling, archery, basketball").
    public static let plugins: [any SportPlugin] = [
        TennisPlugin(),
        BowlingPlugin(),
        ArcheryPlugin(),
        BasketballPlugin()
    ]

    /// The sports this build knows, in the registry's order (the API document's `Sport` enum).
    public static let sports: [Sport] = plugins.map { $0.sport }

    /// The known sports' names for help texts and messages: "tennis, bowling, archery, basketball".
    public static var sportNames: String { Sport.listed(sports) }

    /// Every stage a run may have (the API document's `StageName` enum): the generic ones, then
    /// each plug-in's own, in the registry's order, each once.
    public static let stages: [StageName] = plugins.flatMap { $0.stages }.reduce(into: StageName.generic) { known, stage in
        if !known.contains(stage) { known.append(stage) }
    }

    private static let bySport: [Sport: any SportPlugin] = Dictionary(plugins.map { ($0.sport, $0) }) { first, _ in first }

    public static func plugin(for sport: Sport) -> (any SportPlugin)? { bySport[sport] }

    /// The plug-in of the sport stored under `name` (a job's or a batch's sport, exactly as
    /// written), or nil for a name this build does not know.
    public static func plugin(named name: String) -> (any SportPlugin)? { bySport[Sport(rawValue: name)] }

    /// The known sport stored under `name` (a job's or a batch's sport, exactly as written), or nil
    /// for a name this build does not know (a row written by a newer release).
    public static func sport(named name: String) -> Sport? { plugin(named: name)?.sport }

    /// The sport's typed rows (its plug-in's `table`), for whoever stores its results: the store
    /// links no sport module, so it is handed the table (`RunRepository.complete`).
    public static func table(for sport: Sport) -> ResultTable? { plugin(for: sport)?.table }

    /// The sports with their own correction route (`SportPlugin.confirmationRoute`), by name, so
    /// that the coordinator mounts them in the same order every time.
    public static var confirmationRoutes: [(sport: Sport, route: ConfirmationRoute)] {
        plugins.compactMap { plugin in plugin.confirmationRoute.map { (plugin.sport, $0) } }.sorted { $0.sport.rawValue < $1.sport.rawValue }
    }

    /// The sport's part of a run of a job with `options`.
    public static func plan(for sport: Sport, options: JSONValue = .emptyObject) -> SportPlan {
        plugin(for: sport)?.plan(options: options) ?? .visionOnly
    }

    /// The sports whose plug-in has what `has` asks for, for messages: "bowling and tennis".
    public static func names(where has: (any SportPlugin) -> Bool) -> String {
        let names = plugins.filter(has).map(\.sport.rawValue).sorted()
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
