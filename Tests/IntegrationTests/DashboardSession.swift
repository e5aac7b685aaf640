import Foundation
import TestSupport
import XCTest

/// A browser's view of the dashboard without the browser: curl, no redirects followed, the
/// session cookie kept by hand, forms sent urlencoded. For the checks that need exact statuses
/// and headers; `DashboardBrowserTests` drives Chromium for what people see.
struct DashboardSession {
    let baseURL: String
    var cookie: String?
    /// Where requests go instead of curl: (method, path, headers, body) → the answer with its
    /// header names in lower case. `InProcessStack.dashboardSession()` sends them to the router.
    var transport: (@Sendable (String, String, [String: String], Data?) throws -> (status: Int, headers: [String: String], body: Data))?

    init(baseURL: String, cookie: String? = nil,
         transport: (@Sendable (String, String, [String: String], Data?) throws -> (status: Int, headers: [String: String], body: Data))? = nil) {
        self.baseURL = baseURL
        self.cookie = cookie
        self.transport = transport
    }

    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: String

        /// The sign-in form's hidden `login_csrf` value.
        var loginToken: String? {
            guard let range = body.range(of: #"name="login_csrf" value=""#) else { return nil }
            return String(body[range.upperBound...].prefix { $0 != "\"" })
        }

        /// The value of the first hidden `csrf` field on the page.
        var csrf: String? {
            guard let range = body.range(of: #"name="csrf" value=""#) else { return nil }
            return String(body[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    struct NoAnswer: Error {
        var request: String
        var output: String
    }

    func get(_ path: String) throws -> Answer { try send("GET", path, form: nil) }

    func post(_ path: String, _ form: [(String, String)]) throws -> Answer { try send("POST", path, form: form) }

    /// GETs `path` into `file` (for pictures: the body is bytes, not text); returns the HTTP status.
    func download(_ path: String, to file: URL) throws -> Int {
        if let transport {
            let answer = try transport("GET", path, cookie.map { ["Cookie": $0] } ?? [:], nil)
            try answer.body.write(to: file)
            return answer.status
        }
        var arguments = ["-s", "-S", "--max-time", "30", "-o", file.path, "-w", "%{http_code}"]
        if let cookie { arguments += ["-H", "Cookie: \(cookie)"] }
        let status = String(decoding: try Tool.run("curl", arguments + [baseURL + path]), as: UTF8.self)
        return Int(status) ?? 0
    }

    /// Signs in with `key` through the form (its login token and cookie first, as a browser does)
    /// and keeps the session cookie.
    mutating func signIn(_ key: String) throws -> Answer {
        let form = try get("/dashboard/login")
        var withLoginCookie = self
        withLoginCookie.cookie = form.headers["set-cookie"]?.split(separator: ";").first.map(String.init)
        let answer = try withLoginCookie.post("/dashboard/login", [("key", key), ("login_csrf", form.loginToken ?? "")])
        if let setCookie = answer.headers["set-cookie"], setCookie.hasPrefix("reelwork_session="), let value = setCookie.split(separator: ";").first {
            cookie = String(value)
        }
        return answer
    }

    private func send(_ method: String, _ path: String, form: [(String, String)]?) throws -> Answer {
        if let transport {
            var headers: [String: String] = [:]
            if let cookie { headers["Cookie"] = cookie }
            var body: Data?
            if let form {
                // As curl's --data-urlencode NAME=VALUE: the value percent-encoded, pairs joined by '&'.
                let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
                body = Data(form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")" }
                    .joined(separator: "&").utf8)
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            }
            let answer = try transport(method, path, headers, body)
            return Answer(status: answer.status, headers: answer.headers, body: String(decoding: answer.body, as: UTF8.self))
        }
        var arguments = ["-s", "-S", "-i", "-X", method, "--max-time", "30"]
        if let cookie { arguments += ["-H", "Cookie: \(cookie)"] }
        for (name, value) in form ?? [] { arguments += ["--data-urlencode", "\(name)=\(value)"] }
        if form?.isEmpty == true { arguments += ["--data", ""] }
        arguments.append(baseURL + path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl"] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw NoAnswer(request: "\(method) \(path)", output: String(text.prefix(200))) }
        let head = text[..<split.lowerBound].split(separator: "\r\n")
        let status = head.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: status, headers: headers, body: String(text[split.upperBound...]))
    }
}
