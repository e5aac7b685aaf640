import ReelworkCore
import SportKit

extension StageName {
    /// The stages a run of `sport` with `options` goes through, in order: the diagnostic `noop`
    /// pipeline when the options ask for it, else `probe`, `decode` and the sport's plan.
    ///
    /// `decode`, `objects`, `pose` and the sport's every-frame stage run together over one streamed
    /// decode: every frame is decoded once (counted, sampled for frame quality), and the sampled
    /// frames flow on to the detector and the pose model as they come out of the decoder.
    public static func plan(for sport: Sport, options: JSONValue = .emptyObject) -> [StageName] {
        if let noop = options["noop"] { return noop["probe"] == .bool(true) ? [.probe, .noop] : [.noop] }
        return [.probe, .decode] + SportRegistry.plan(for: sport, options: options).stages
    }

    /// The stages that consume decoded frames as they stream out of one decode pass: `decode`, the
    /// models' and every registered sport's every-frame stage.
    public var isStreamed: Bool { Self.streamed.contains(self) }

    private static let streamed: Set<StageName> = Set([.decode, .objects, .pose] + SportRegistry.plugins.compactMap { $0.plan(options: .emptyObject).everyFrameStage })
}
