import ReelworkCore

/// A model that does not fit what Reelwork can run, or a model that failed to load, said in words
/// an operator can act on (which model, which setting, what is wrong).
///
/// Always `.internal`: the video is not at fault, and a corrected deploy (right path, a supported
/// export) makes a retry succeed.
public struct VisionError: Error, ClassifiedError, CustomStringConvertible, Equatable, Sendable {
    /// Which part of the vision setup the error is about.
    public enum Component: String, Sendable, Equatable {
        case runtime, detector, pose
    }

    public let component: Component
    public let message: String

    public var kind: ErrorKind { .internal }
    public var description: String { message }

    public init(_ component: Component, _ message: String) {
        self.component = component
        self.message = message
    }
}
