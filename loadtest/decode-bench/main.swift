// decode-bench FILE [--threads T] [--sample-interval S]
//
// Decodes every frame of FILE with Media.VideoDecoder, the same code path as the worker's
// decode stage, and prints one line: `frames=N seconds=S fps=F`. loadtest/decode-bench.sh
// compares that figure with the ffmpeg CLI.
import Foundation
import Media

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("decode-bench: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var file: String?
var options = DecodeOptions()
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
    case "-h", "--help":
        print("usage: decode-bench FILE [--threads T (0 = auto)] [--sample-interval SECONDS]")
        exit(0)
    default:
        guard file == nil, !argument.hasPrefix("-") else { fail("unexpected argument \(argument)") }
        file = argument
    }
}
guard let file else { fail("usage: decode-bench FILE [--threads T] [--sample-interval SECONDS]") }

do {
    // Opening is part of the measured time, as it is for `ffmpeg -i FILE -f null -`.
    let clock = ContinuousClock()
    let start = clock.now
    let decoder = try VideoDecoder(location: file, options: options)
    let report = try decoder.decodeAll { _ in }
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(String(format: "frames=%d seconds=%.3f fps=%.1f", report.framesDecoded, seconds,
                 Double(report.framesDecoded) / seconds))
} catch {
    fail("\(error)")
}
