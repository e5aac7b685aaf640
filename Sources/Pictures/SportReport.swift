import Media
import ReelworkCore

/// What a sport contributes to pictures and reports: its result drawn over frames of its own
/// video, the totals a report opens with, and the columns of its table of rows (shots, swings).
/// A sport without one has no picture or report section, and the routes say so. Adding a sport's
/// is one type conforming to this in the sport's own module (`<Sport>Picture`, drawn with this
/// module's canvas), named by the sport's plug-in (`SportPlugin.report`).
public protocol SportReport: Sendable {
    /// What one row is called in a report ("shot", "swing").
    var rowNoun: String { get }
    /// The rows of one job's result, in order.
    func rows(in result: JSONValue) -> [JSONValue]
    /// The picture of `result` (with the job's `options`), drawn over frames `frames` gives;
    /// nil when the result has nothing to draw. Throws what decoding a frame throws.
    func picture(result: JSONValue, options: JSONValue, frames: any FrameSource) throws -> Picture?
    /// Totals over `rows` (one job's, or a whole batch's), in reading order.
    func totals(_ rows: [JSONValue]) -> [Total]
    /// The report table's columns.
    var columns: [ReportColumn] { get }
}

/// One line of a report's totals: "Shots" — "12".
public struct Total: Sendable, Equatable {
    public var label: String
    public var value: String
    public init(_ label: String, _ value: String) { (self.label, self.value) = (label, value) }

    /// The value could not be measured ("–").
    public var isMissing: Bool { value == ResultValues.missing }
}

/// One column of a report's table: its heading, its share of the table's width, and a row's cell.
public struct ReportColumn: Sendable {
    public var title: String
    public var weight: Double
    public var cell: @Sendable (JSONValue) -> String
    public init(_ title: String, weight: Double = 1, cell: @escaping @Sendable (JSONValue) -> String) {
        (self.title, self.weight, self.cell) = (title, weight, cell)
    }
}

extension SportReport {
    /// The picture of `result` drawn over frames of the video at `location` (a path or URL
    /// libavformat reads), opened with `guards`. Throws `MediaError` when the video cannot be read.
    public func picture(result: JSONValue, options: JSONValue, videoAt location: String, guards: MediaGuards = MediaGuards()) throws -> Picture? {
        try picture(result: result, options: options, frames: try FrameGrabber(location: location, guards: guards))
    }
}

/// A sport whose sessions add up into one stats table (basketball's shooting line, seed 001): a
/// batch's report lists each succeeded session's line and the batch's total under its totals.
public protocol SessionStatsTable {
    var statsColumns: [ReportColumn] { get }
    /// One line of the table: `name`, and the totals over `rows` (one session's, or every session's).
    func statsRow(name: String, rows: [JSONValue]) -> JSONValue
}
