import ReelworkCore

/// A sport whose options name pixels of the picture (basketball's `hoop`): the coordinator checks
/// them against the uploaded video's displayed size when the job is created, so an option outside
/// the frame is refused before any job exists. The run checks them again when the decoder opens
/// (the video's size is a fact only then for `reelwork analyze`).
public protocol FrameSizedOptions {
    /// Throws `ReelworkError.invalidInput` naming the option that lies outside a `width` × `height`
    /// displayed frame; options that do not parse are the plug-in's `analysis(options:)`'s to refuse.
    func checkOptions(_ options: JSONValue, frameWidth width: Int, frameHeight height: Int) throws
}
