import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReelworkCore
import Threading

/// Raw HTTP for tests that need what the typed client hides (status codes, headers, odd bodies).
enum HTTP {
    /// `key` goes out as `Authorization: Bearer`, which every `/v1` endpoint requires.
    static func request(_ method: String, _ url: URL, key: String? = nil, body: Data? = nil, headers: [String: String] = [:]) throws
        -> (Data, Int, [String: String]) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        let semaphore = DispatchSemaphore(value: 0)
        let answer = LockedValue<Result<(Data, Int, [String: String]), any Error>?>(nil)
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let error { answer.withLock { $0 = .failure(error) } } else {
                let http = response as? HTTPURLResponse
                var fields: [String: String] = [:]
                for (k, v) in http?.allHeaderFields ?? [:] { fields["\(k)"] = "\(v)" }
                answer.withLock { $0 = .success((data ?? Data(), http?.statusCode ?? 0, fields)) }
            }
            semaphore.signal()
        }.resume()
        semaphore.wait()
        return try answer.withLock { $0! }.get()
    }

    static func get(_ url: URL, key: String? = nil, headers: [String: String] = [:]) throws -> (Data, Int, [String: String]) {
        try request("GET", url, key: key, headers: headers)
    }

    /// The `{error: {code, message}}` of an answer.
    static func apiError(_ data: Data) -> (code: String, message: String)? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let error = object["error"] as? [String: Any],
              let code = error["code"] as? String, let message = error["message"] as? String else { return nil }
        return (code, message)
    }
}
