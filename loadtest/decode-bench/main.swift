// decode-bench FILE [--threads T] [--sample-interval S]
// decode-bench FILE --verify
//
// Decodes every frame of FILE with Media.VideoDecoder, the same code path as the worker's
// decode stage, and prints one line: `frames=N seconds=S fps=F`. loadtest/decode-bench.sh
// compares that figure with the ffmpeg CLI.
// With --verify it instead times MediaProbe.probe(verifyPackets: true), the upload check:
// `verified frames=N seconds=S MB/s=R`.
import Foundation
import Media
import ReelworkCore

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("decode-bench: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var file: String?
var options = DecodeOptions()
var verifyOnly = false
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--threads":
        guard let value = arguments.first.flatMap(Int.init), value >= 0 else { fail("--threads needs a number ≥ 0") }
        options.threads = value
        arguments.removeFirst()
    case "--sample-interval":
        guard let value = arguments.first.flatMap(Double.init) else { fail("--sample-interval needs seconds") }
        options.qualitySampleInterval = value
        arguments.removeFirst()
    case "--verify":
        verifyOnly = true
    case "-h", "--help":
        print("usage: decode-bench FILE [--threads T (0 = auto)] [--sample-interval SECONDS] | FILE --verify")
        exit(0)
    default:
        guard file == nil, !argument.hasPrefix("-") else { fail("unexpected argument \(argument)") }
        file = argument
    }
}
extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

guard let file else { fail("usage: decode-bench FILE [--threads T] [--sample-interval SECONDS]") }

do {
    // Opening is part of the measured time, as it is for `ffmpeg -i FILE -f null -`.
    let clock = ContinuousClock()
    let start = clock.now
    if verifyOnly {
        let facts = try MediaProbe.probe(file, verifyPackets: true)
        let seconds = (clock.now - start).seconds
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        print(String(format: "verified frames=%d seconds=%.3f MB/s=%.0f", facts.frameCount, seconds,
                     Double(bytes) / 1e6 / seconds))
        exit(0)
    }
    let decoder = try VideoDecoder(location: file, options: options)
    let report = try decoder.decodeAll { _ in }
    let seconds = (clock.now - start).seconds
    print(String(format: "frames=%d seconds=%.3f fps=%.1f", report.framesDecoded, seconds,
                 Double(report.framesDecoded) / seconds))
} catch {
    fail("\(error)")
}
