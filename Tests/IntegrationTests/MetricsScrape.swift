import Foundation
import XCTest

/// One scrape of a `/metrics` endpoint, read by prometheus_client's text parser (the Prometheus
/// project's Python client, tools/prometheus-parser/parse.py in the venv that
/// scripts/setup-prometheus-parser.sh makes), not by any code of ours: what it cannot parse fails
/// the test.
struct MetricsScrape {
    struct Family: Decodable {
        var name: String
        var type: String
        var samples: [Sample]
    }

    struct Sample: Decodable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    static let python = TestStack.packageRoot.appendingPathComponent(".local/prometheus-parser/bin/python")
    static let parser = TestStack.packageRoot.appendingPathComponent("tools/prometheus-parser/parse.py")

    let families: [Family]
    var samples: [Sample] { families.flatMap(\.samples) }

    /// GETs `url` with `key` (an operator key or the scrape token); fails unless it answers 200
    /// with Prometheus's text format.
    static func fetch(_ url: URL, key: String, file: StaticString = #filePath, line: UInt = #line) throws -> MetricsScrape {
        let (data, status, headers) = try HTTP.get(url, key: key)
        guard status == 200 else {
            XCTFail("GET \(url) answered \(status): \(String(decoding: data, as: UTF8.self))", file: file, line: line)
            throw URLError(.badServerResponse)
        }
        let type = headers.first { $0.key.lowercased() == "content-type" }?.value ?? ""
        XCTAssertTrue(type.hasPrefix("text/plain; version=0.0.4"), "content type \(type)", file: file, line: line)
        return try parse(data)
    }

    static func parse(_ text: Data) throws -> MetricsScrape {
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            XCTFail("\(python.path) is missing: run scripts/setup-prometheus-parser.sh (scripts/test.sh does)")
            throw CocoaError(.fileNoSuchFile)
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [parser.path]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The text is small (tens of KB) but written from another thread all the same, so a full
        // pipe on either side cannot stall both processes.
        DispatchQueue.global().async {
            input.fileHandleForWriting.write(text)
            try? input.fileHandleForWriting.close()
        }
        let json = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            XCTFail("prometheus_client refused the text: \(String(decoding: complaint, as: UTF8.self))\n\(String(decoding: text, as: UTF8.self))")
            throw CocoaError(.coderReadCorrupt)
        }
        struct Document: Decodable { var families: [Family] }
        return MetricsScrape(families: try JSONDecoder().decode(Document.self, from: json).families)
    }

    /// The sum of the samples named `name` whose labels include `labels` (0 when there are none:
    /// a counter a process has not touched yet is absent).
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double {
        samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }.map(\.value).reduce(0, +)
    }

    /// Whether any sample is named `name`.
    func has(_ name: String) -> Bool {
        samples.contains { $0.name == name }
    }
}
