import Media
import ReelworkCore

/// Where a picture gets the frames of its video: the stored video (the coordinator), the file
/// being analysed (`reelwork analyze`), or a test's made-up frames.
public protocol FrameSource {
    /// The video's size as displayed (rotation applied): the coordinates results are in.
    var displaySize: (width: Int, height: Int) { get }
    /// The frame shown at `seconds`, at most `maxWidth` pixels wide (never scaled up).
    func frame(atSeconds seconds: Double, maxWidth: Int) throws -> FramePixels
}

extension FrameGrabber: FrameSource {
    public var displaySize: (width: Int, height: Int) {
        let turned = facts.rotation == 90 || facts.rotation == 270
        return turned ? (facts.height, facts.width) : (facts.width, facts.height)
    }

    public func frame(atSeconds seconds: Double, maxWidth: Int) throws -> FramePixels {
        try pixels(atSeconds: seconds, maxWidth: maxWidth)
    }
}
