import Foundation
import FuzzSupport
import ReelworkCore
import XCTest

/// Random and hostile requests at every endpoint: bodies with odd JSON (extreme numbers, NUL and
/// other control characters, wrong types, deep nesting), odd query values, odd ids and ranges.
/// Every answer must be a 2xx or a 4xx with a message (a 503 only when the queue is unavailable):
/// never a 500, never a dropped connection, and the coordinator stays up.
final class RequestFuzzTests: CoordinatorTestCase {
    /// REELWORK_FUZZ_SEED replays or varies the run (the seed is printed).
    static let seed = ProcessInfo.processInfo.environment["REELWORK_FUZZ_SEED"].flatMap { UInt64($0) } ?? 42
    var random = SeededGenerator(seed: seed)

    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }

    /// A JSON text (not always valid) for a value of any kind.
    func value(depth: Int = 0) -> String {
        let scalars = ["0", "-0", "1e300", "-1e300", "1e-320", "2.5", "-1", "9223372036854775808", "1E400", "true", "null",
                       #""""#, #""tennis""#, #""\u0000""#, #""a\u0000b""#, #""\ud800""#, #""\t\r\n""#, #""=cmd|' /C calc'!A0""#,
                       #""\#(String(repeating: "x", count: 300))""#, #""ü🎾""#, #""2026-01-01T00:00:00Z""#, #""+275760-09-13T00:00:00Z""#,
                       #""0000-00-00T00:00:00Z""#, "[]", "{}", #"{"noop": {"seconds": 1e300}}"#, "01", ".5", "NaN", "Infinity"]
        guard depth < 4, random.next() % 3 == 0 else { return pick(scalars) }
        let count = Int(random.next() % 4)
        if random.next() % 2 == 0 {
            return "[" + (0..<count).map { _ in value(depth: depth + 1) }.joined(separator: ",") + "]"
        }
        let keys = ["noop", "seconds", "failAttempts", "ballProfile", "color", "h", "calibration", "lanePoints", "playerHeight",
                    "dominantHand", "hand", "pose", "x\u{0}y", ""]
        return "{" + (0..<count).map { _ in "\"\(pick(keys))\": \(value(depth: depth + 1))" }.joined(separator: ",") + "}"
    }

    func jobBody(video: String) -> String {
        var fields: [String] = []
        if random.next() % 8 != 0 { fields.append(#""videoId": \#(random.next() % 4 == 0 ? value() : "\"\(video)\"")"#) }
        if random.next() % 8 != 0 { fields.append(#""sport": \#(pick([#""tennis""#, #""bowling""#, #""archery""#, #""TENNIS""#, value()]))"#) }
        if random.next() % 2 == 0 { fields.append(#""club": \#(pick([#""north""#, #""a b.c_d-e""#, #""../x""#, #""\u0000""#, value()]))"#) }
        if random.next() % 2 == 0 { fields.append(#""options": \#(value())"#) }
        if random.next() % 3 == 0 { fields.append(#""maxAttempts": \#(pick(["3", "0", "11", "1e300", "-1", "2.5", value()]))"#) }
        if random.next() % 3 == 0 { fields.append(#""priority": \#(pick([#""high""#, #""urgent""#, value()]))"#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    func assertAnswered(_ label: String, _ data: Data, _ status: Int, file: StaticString = #filePath, line: UInt = #line) {
        let error = HTTP.apiError(data)
        switch status {
        case 200..<300: break
        case 400..<500: XCTAssertFalse(error?.message.isEmpty ?? true, "\(label): \(status) without a message", file: file, line: line)
        case 503 where error?.code == "queue_unavailable": break
        default: XCTFail("\(label): answered \(status): \(String(decoding: data, as: UTF8.self))\n\(stack.logTail())", file: file, line: line)
        }
    }

    func testRandomRequestsAtEveryEndpointGetAClearAnswer() throws {
        let base = stack.coordinatorURL
        let video = try stack.uploadTinyClip().uuidString.lowercased()
        var statuses: [Int: Int] = [:]
        func send(_ label: String, _ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:]) throws {
            guard let url = URL(string: base + path) else { return }
            let (data, status, _) = try HTTP.request(method, url, key: stack.operatorKey, body: body.map { Data($0.utf8) }, headers: headers)
            statuses[status, default: 0] += 1
            assertAnswered("\(label) \(method) \(path) \(body ?? "")", data, status)
        }
        for round in 0..<300 {
            try send("job", "POST", "/v1/jobs", body: jobBody(video: video),
                     headers: round % 5 == 0 ? ["Idempotency-Key": pick(["k", String(repeating: "k", count: 300), " ", "é"])] : [:])
            try send("retry", "POST", "/v1/jobs/retry", body: value())
            let query = ["status", "sport", "club", "limit", "cursor"].filter { _ in random.next() % 2 == 0 }.map { key in
                "\(key)=" + (pick(["1", "0", "-1", "1e300", "99999999999999999999", "failed", "%00", "%FF%FE", "a%20b", video, "", "%"]))
            }.joined(separator: "&")
            try send("list", "GET", "/v1/jobs?" + query)
            let id = pick([video, UUID().uuidString, "not-a-uuid", "%00", String(repeating: "9", count: 400), "..%2F..%2Fetc%2Fpasswd"])
            try send("job by id", "GET", "/v1/jobs/\(id)")
            try send("results", "GET", "/v1/jobs/\(id)/results?format=" + pick(["csv", "json", "xml", "%00"]))
            try send("cancel", "POST", "/v1/jobs/\(id)/cancel")
            try send("content", "GET", "/v1/videos/\(id)/content",
                     headers: ["Range": pick(["bytes=0-0", "bytes=-0", "bytes=99999999999999999999-", "bytes=5-1", "bytes=0-1,2-3",
                                              "bytes=-99999999999999999999", "items=0-1", "bytes=-1", "bytes=0-"])])
        }
        XCTAssertTrue(stack.coordinator?.isRunning ?? false)
        let (_, health, _) = try HTTP.get(URL(string: "\(base)/healthz")!)
        XCTAssertEqual(health, 200)
        print("request fuzz (seed \(Self.seed)): \(statuses.values.reduce(0, +)) requests: \(statuses.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", "))")
    }
}
