import Foundation
import Inference
import ReelworkCore
import Threading

/// The loaded models one job uses: the detector and the pose model, sharing one ONNX Runtime.
///
/// Not thread-safe: one job at a time uses a set (`VisionModelPool` hands them out).
public final class VisionModels {
    public let settings: VisionSettings
    /// Intra-op threads of both sessions.
    public let threads: Int
    public let runtime: OnnxRuntime
    public let detector: ObjectDetector
    public let pose: PoseEstimator

    /// Loads both models with `threads` intra-op threads each (`poseThreads` for the pose model if
    /// given; sequential execution, all graph optimisations, as `reference_infer.py` runs them).
    ///
    /// Spinning is off by default: the two sessions take turns on the same cores, and a session's
    /// worker threads busy-waiting after its run would slow the other session and the decoder down
    /// (measured on 2 cores: the detector ran 61 instead of 35 ms a frame; docs/benchmarks/vision.md).
    ///
    /// Throws a VisionError whose `component` says which model (or the runtime) failed and whose
    /// message names the setting to fix, with ONNX Runtime's own words: a wrong path, a corrupt
    /// file, or an output layout Reelwork does not know.
    public init(settings: VisionSettings, threads: Int, runtime: OnnxRuntime, poseThreads: Int? = nil, allowSpinning: Bool = false) throws {
        self.settings = settings
        self.threads = threads
        self.runtime = runtime
        let options = SessionOptions(intraOpThreads: threads, interOpThreads: 1, allowSpinning: allowSpinning)
        var poseOptions = options
        poseOptions.intraOpThreads = poseThreads ?? threads
        do {
            detector = try ObjectDetector(runtime: runtime, modelPath: settings.detectorModel, options: options)
        } catch let error as VisionError {
            throw error
        } catch {
            throw VisionError(.detector, "cannot load the detector model (\(VisionSettings.Env.detectorModel)): \(Self.text(error))")
        }
        do {
            pose = try PoseEstimator(runtime: runtime, modelPath: settings.poseModel, options: poseOptions)
        } catch let error as VisionError {
            throw error
        } catch {
            throw VisionError(.pose, "cannot load the pose model (\(VisionSettings.Env.poseModel)): \(Self.text(error))")
        }
    }

    /// Loads the ONNX Runtime library `settings.ortLibrary`, then both models.
    public convenience init(settings: VisionSettings, threads: Int, poseThreads: Int? = nil, allowSpinning: Bool = false) throws {
        try self.init(settings: settings, threads: threads, runtime: try Self.runtime(at: settings.ortLibrary),
                      poseThreads: poseThreads, allowSpinning: allowSpinning)
    }

    /// The process's ONNX Runtime loaded from `path` (loaded once per path, then shared).
    /// Throws a `.runtime` VisionError naming the path and `REELWORK_ORT_LIBRARY`.
    public static func runtime(at path: String) throws -> OnnxRuntime {
        try runtimes.withLock { loaded in
            if let runtime = loaded[path] { return runtime }
            do {
                let runtime = try OnnxRuntime.load(libraryPath: path)
                loaded[path] = runtime
                return runtime
            } catch {
                throw VisionError(.runtime, "cannot load ONNX Runtime (\(VisionSettings.Env.ortLibrary)): \(text(error))")
            }
        }
    }

    private static let runtimes = LockedValue<[String: OnnxRuntime]>([:])

    private static func text(_ error: any Error) -> String {
        (error as? any ClassifiedError)?.message ?? "\(error)"
    }
}
