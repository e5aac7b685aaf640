import Foundation
import Hummingbird
import Logging
import Queue
import ReelworkCore
import Store

/// Dashboard sign-in: an API key exchanged for a session cookie (HttpOnly, SameSite=Strict, path
/// `/dashboard`, and Secure when the public URL is https), and the checks each request makes of it.
/// Every form carries the session's CSRF token; a POST without the right one changes nothing. The
/// sign-in form has a token of its own before there is a session (login CSRF: another site must
/// not sign a browser in with the attacker's key): a random value in a cookie scoped to the form
/// and in a hidden field, which the POST must repeat (double submit).
struct DashboardSignIn: Sendable {
    let backends: Backends

    static let cookieName = "reelwork_session"
    static let loginCookieName = "reelwork_login"
    static let loginFieldName = "login_csrf"
    /// A session lasts a working day; revoking its key ends it at once.
    static let lifetime: TimeInterval = 12 * 3600

    /// The signed-in user of this request, or nil (no cookie, an unknown or expired one, or a revoked key).
    func session(for request: Request) async throws -> DashboardSession? {
        guard let cookie = Self.cookie(in: request) else { return nil }
        return try await backends.sql { try DashboardSessionRepository($0).find(cookie: cookie) }
    }

    /// Checks a presented key and opens a session; returns the Set-Cookie value.
    func signIn(key presented: String) async throws -> String {
        let trimmed = presented.trimmingCharacters(in: .whitespacesAndNewlines)
        let record: APIKeyRecord?
        do {
            record = try await Authenticator(backends: backends).lookUp(trimmed)
        } catch is APIError {
            throw DashboardProblem(.unauthorized, "That is not an API key: keys start with rw_ and come from `reelwork keys create`.")
        }
        guard let record else { throw DashboardProblem(.unauthorized, "That key is not valid (unknown, or revoked).") }
        guard record.role != .worker else {
            throw DashboardProblem(.forbidden, "Worker keys cannot sign in: use an operator key or your club's key.")
        }
        let (cookie, _) = try await backends.sql { try DashboardSessionRepository($0).open(keyId: record.id, lifetime: Self.lifetime) }
        backends.logger.info("dashboard sign-in with key \(record.prefix)")
        return "\(Self.cookieName)=\(cookie); Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=\(Int(Self.lifetime))\(secureAttribute)"
    }

    /// `; Secure` when browsers reach the dashboard over https (the public URL says so), so the
    /// cookie is never sent over plain HTTP; nothing for a plain-HTTP local stack, where a Secure
    /// cookie would never come back.
    var secureAttribute: String {
        backends.config.linkBaseURL.lowercased().hasPrefix("https://") ? "; Secure" : ""
    }

    /// A fresh sign-in form token and the Set-Cookie value that carries it.
    func newLoginToken() -> (token: String, setCookie: String) {
        let token = DashboardSessionRepository.randomToken()
        return (token, "\(Self.loginCookieName)=\(token); Path=/dashboard/login; HttpOnly; SameSite=Strict; Max-Age=3600\(secureAttribute)")
    }

    /// Throws unless the sign-in form repeats the token of its cookie (compared in constant time).
    static func checkLoginCSRF(_ form: DashboardForm, request: Request) throws {
        guard let sent = form[loginFieldName], !sent.isEmpty, let expected = cookie(loginCookieName, in: request), !expected.isEmpty,
              constantTimeEqual(Array(sent.utf8), Array(expected.utf8)) else {
            throw DashboardProblem(.forbidden, "The sign-in form's security token was missing or did not match, so nobody was signed in. Try again on this page.")
        }
    }

    /// Ends the request's session; returns the Set-Cookie value that clears the cookie.
    func signOut(_ request: Request) async throws -> String {
        if let cookie = Self.cookie(in: request) {
            try await backends.sql { try DashboardSessionRepository($0).close(cookie: cookie) }
        }
        return "\(Self.cookieName)=; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=0\(secureAttribute)"
    }

    /// Throws unless the form carries the session's CSRF token (compared in constant time).
    static func checkCSRF(_ form: DashboardForm, session: DashboardSession) throws {
        guard let sent = form["csrf"], !sent.isEmpty else {
            throw DashboardProblem(.forbidden, "The form had no security token, so nothing was changed. Reload the page and try again.")
        }
        guard constantTimeEqual(Array(sent.utf8), Array(session.csrfToken.utf8)) else {
            throw DashboardProblem(.forbidden, "The form's security token does not match your session, so nothing was changed. Reload the page and try again.")
        }
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    static func cookie(in request: Request) -> String? { cookie(cookieName, in: request) }

    static func cookie(_ name: String, in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for part in header.split(separator: ";") {
                let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0] == name { return String(pair[1]) }
            }
        }
        return nil
    }
}
