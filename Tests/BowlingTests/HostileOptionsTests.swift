import Foundation
import FuzzSupport
import Media
import ReelworkCore
import XCTest
@testable import Bowling

/// Options a client can send and figures a file can hold, at their extremes, through everything
/// the bowling stages do with them: parsing, the tracker on real frames, the metrics and their
/// JSON. Nothing may trap, and whatever reaches the result must be a number JSON can hold.
final class HostileOptionsTests: XCTestCase {
    static let extremes: [Double] = [0, -0.0, 1e-300, -1e-300, 1e300, -1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                                     .leastNonzeroMagnitude, 1, -1, 0.5, 320, 240, 1e9, -1e9]

    func testExtremeNumbersThroughParsingTrackingAndMetrics() throws {
        var random = SeededGenerator(seed: 7)
        /// Mostly a value in `valid` (so parsing gets past it), sometimes an extreme.
        func number(_ valid: ClosedRange<Double> = -50...400) -> JSONValue {
            if random.next() % 5 == 0 { return .number(Self.extremes[Int(random.next() % UInt64(Self.extremes.count))]) }
            return .number(Double.random(in: valid, using: &random))
        }
        func point() -> JSONValue { .array([number(), number()]) }
        var parsed = 0, refused = 0, tracked = 0
        for round in 0..<300 {
            let calibration: JSONValue = round % 2 == 0
                ? .object(["pixelsPerFoot": number(), "pixelsPerBoard": number(), "foulLineY": number(), "arrowsY": number(),
                           "leftGutterX": number(), "rightGutterX": number()])
                : .object(["lanePoints": .object(["foulLineLeft": point(), "foulLineRight": point(), "farLeft": point(),
                                                  "farRight": point(), "farDistanceFt": number(1...100)])])
            let options: JSONValue = .object([
                // Half the rounds look for the ball the frames show, so the metrics see tracks.
                "ballProfile": .object(["color": round % 4 < 2 ? SyntheticFrame.ballHSV : .object(["h": number(0...360), "s": number(0...100), "v": number(0...100)]),
                                        "colorTolerance": number(0...180),
                                        "markerColor": .object(["h": number(0...360), "s": number(0...100), "v": number(0...100)])]),
                "calibration": round % 5 == 0 ? .null : calibration,
            ])
            let parsedOptions: BowlingOptions
            do {
                parsedOptions = try BowlingOptions.parse(options)
                parsed += 1
            } catch is ReelworkError {
                refused += 1
                continue
            }
            // The frame rate and times come from the file: extremes there too.
            let rates: [Double] = [30, 0, .nan, .infinity, 1e300, 1e-300]
            let tracker: BallTracker
            do {
                tracker = try BallTracker(options: parsedOptions, frameWidth: 320, frameHeight: 240, frameRate: rates[round % rates.count])
            } catch is ReelworkError {
                continue
            }
            let times: [Double] = [0, 1e300, .nan, -1, 1e-300]
            do {
                for i in 0..<6 {
                    var frame = SyntheticFrame()
                    frame.disc(160, 200 - Double(i) * 20, 6)
                    try frame.withImage { try tracker.process($0, time: i == 3 ? times[round % times.count] : Double(i) / 30, frameIndex: i) }
                }
                let tracks = try tracker.finish()
                tracked += 1
                for shot in ShotMetricsCalculator.measure(tracks, options: parsedOptions) {
                    XCTAssertNoThrow(try shot.json().encodedText(), "round \(round): a metric JSON cannot hold: \(options)")
                }
            } catch is ReelworkError {
                continue
            }
        }
        print("hostile bowling options: \(parsed) parsed, \(refused) refused, \(tracked) tracked to the end")
        XCTAssertGreaterThan(parsed, 25)
        XCTAssertGreaterThan(refused, 50)
        XCTAssertGreaterThan(tracked, 10, "enough rounds reach the metrics")
    }
}
