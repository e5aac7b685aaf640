import Pictures
import ReelworkCore

// SportKit: what a sport is to the rest of Reelwork, and nothing else.
//
// It depends on ReelworkCore (the API's names: `Sport`, `StageName`, `ResultTable`), Media (a
// decoded frame is an `RGBImage`) and Pictures (a sport's drawing is a `SportReport`), and on no
// model runtime: a sport is handed detections and poses as plain values (`SampledVision`), so the
// coordinator parses a job's options with the sport's own parser without linking ONNX Runtime or
// the Vision module, and a sport module stays testable without models.

/// A sport, as the pipeline, the coordinator, the store's typed rows and the pictures see it.
///
/// The one streamed decode of a run serves every sport: it counts every frame, runs the detector
/// and the pose model on the sampled frames the sport asks for (`SportPlan.sampled`), and hands
/// every decoded frame to the sport's every-frame stage when it has one
/// (`SportPlan.everyFrameStage`). The sport's own stages then run in plan order on what it took
/// in (`SportAnalysis`), each returning the result document's fields it fills.
///
/// How each shape of sport fits:
/// - every decoded frame (bowling's ball tracker; basketball): `everyFrameStage` set, its
///   `FrameConsumer` fed each frame as RGB; with `sampled` `.objects` (basketball) the frames the
///   models look at come with the detector's boxes on them (`FrameDetections`), `.none` (bowling,
///   unless it wants people) for none.
/// - sampled frames with detections and poses (tennis): `sampled` `.objectsAndPoses`, the stages
///   after the decode read `DecodedInput.sampled`.
/// - a still image or a few steady frames (archery): a photo is decoded by FFmpeg as a one-frame
///   video, so an `everyFrameStage` sees that frame (or the first steady ones of a clip: the
///   consumer keeps what it wants and ignores the rest).
///
/// Adding a sport (docs/CHECKLISTS.md has the whole list):
/// 1. a module `Sources/<Sport>/` with its analysis (no I/O), named as the other sports' are:
///    `<Sport>Plugin.swift` holding a type that conforms to `SportPlugin` (and its `SportAnalysis`;
///    its `summary(of:)` is the CLI's line for a result), `<Sport>Options.swift` (the options and
///    their parser), the result's type, and `<Sport>Picture.swift`; in Package.swift the target
///    depends on `SportKit` (and `Pictures` for its drawing), and `Sports` depends on it;
/// 2. beside the plug-in, its `Sport` constant and its own stages' `StageName` constants
///    (`extension Sport { public static let <sport> = Sport(rawValue: "<sport>") }`; the raw values
///    are the API's names, which the registry then knows: `SportRegistry.sports`, `.stages`);
/// 3. one line in `SportRegistry.plugins` (Sources/Sports/SportRegistry.swift);
/// 4. optional: a drawing (`SportReport`, `<Sport>Picture`, drawn with the Pictures module's canvas)
///    returned by `report`; typed rows: a `ResultTable` defined in the sport's module, with its
///    migration, returned by `table` (the worker hands it to the store, which links no sport
///    module); corrections: a `RowCorrector` returned by `corrector`, or, for corrections that are
///    not row edits, a `ConfirmationRoute` returned by `confirmationRoute` (with a migration for
///    its table; the coordinator mounts it).
public protocol SportPlugin: Sendable {
    var sport: Sport { get }

    /// The sport's part of a run of a job with `options`: what it takes from the streamed decode
    /// and its stages. Never throws: options are checked by `analysis(options:)`.
    func plan(options: JSONValue) -> SportPlan

    /// Every stage of the sport's own that a plan of it may name (the registry lists them: the
    /// API's `StageName` values, the worker's frame counters). By default its plan's stages with
    /// no options; a sport whose options add a stage of its own lists it here.
    var stages: [StageName] { get }

    /// A run's analysis, with the options parsed and validated. The coordinator calls this at job
    /// creation to refuse bad options with the worker's own parser (and drops the analysis).
    /// Throws `ReelworkError.invalidInput` for malformed options, `.needsPerson` for ones only a
    /// person can fix, each naming the option.
    func analysis(options: JSONValue) throws -> any SportAnalysis

    /// The typed rows of a result (CSV and the PostgreSQL table); nil when it has none.
    var table: ResultTable? { get }

    /// The result drawn (PNG picture, PDF report); nil when the sport draws nothing.
    var report: (any SportReport)? { get }

    /// What a result found, in one line for a terminal's table ("3 shots", "10 shots, 6 made",
    /// "6 arrows, 54"), or `ResultSummary.nothing` when it holds none of the sport's rows.
    func summary(of result: JSONValue) -> String

    /// How a person corrects the result's rows (`POST /v1/jobs/{id}/corrections`); nil when the
    /// sport takes no row corrections (archery's end is corrected at its `confirmationRoute`).
    var corrector: RowCorrector? { get }

    /// The sport's own correction route, `/v1/jobs/{id}/<segment>` (archery's `arrows`), for
    /// corrections that are not row edits; nil when it has none.
    var confirmationRoute: ConfirmationRoute? { get }
}

extension SportPlugin {
    public var stages: [StageName] {
        let plan = plan(options: .emptyObject)
        return (plan.everyFrameStage.map { [$0] } ?? []) + plan.afterDecode
    }

    public var corrector: RowCorrector? { nil }
    public var confirmationRoute: ConfirmationRoute? { nil }
}
