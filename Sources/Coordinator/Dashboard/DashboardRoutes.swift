import DashboardTemplates
import Foundation
import Hummingbird
import ObjectStorage
import ReelworkCore
import Store

/// The operators' and clubs' dashboard under `/dashboard`: server-rendered pages (Mustache), a
/// little plain JavaScript for live stage progress, usable without it. A session cookie from an
/// API key signs in (`DashboardSignIn`); a club key sees its club only, exactly as in the API,
/// because every page asks the same club-scoped queries with the session's caller. Every action is
/// a POST form carrying the session's CSRF token.
struct DashboardRoutes {
    let backends: Backends
    let jobs: JobRoutes
    /// A person's corrections of a job's rows, made from its page as the API makes them.
    let corrections: CorrectionRoutes
    let control: ControlRoutes
    let events: EventRoutes
    /// The sports' own pictures (archery's face, basketball's shot chart), drawn as the API draws them.
    let reports: ReportRoutes
    let store: any ObjectStore
    let renderer: DashboardRenderer
    /// Stills of videos already decoded, and the per-key rate of new decodes.
    let stillCache: StillCache
    let stillLimiter: RateBuckets
    var signIn: DashboardSignIn { DashboardSignIn(backends: backends) }

    typealias PageHandler = @Sendable (Request, APIRequestContext, Visitor) async throws -> Response
    typealias ActionHandler = @Sendable (Request, APIRequestContext, Visitor, DashboardForm) async throws -> Response

    /// A signed-in user: the session, the API caller it stands for, and what every page's layout needs.
    struct Visitor {
        let session: DashboardSession
        var caller: Caller { Caller(session.key) }
        var isOperator: Bool { session.key.role == .operator }

        var base: [String: Any] {
            let who = session.key.club.map { "club \($0)" } ?? "\(session.key.role.rawValue) key \(session.key.prefix)"
            return ["signedIn": true, "isOperator": isOperator, "who": who, "csrf": session.csrfToken]
        }
    }

    func register(on router: Router<APIRequestContext>) {
        router.get("/dashboard/static/dashboard.css") { _, _ in Self.asset(DashboardTemplates.stylesheet, type: "text/css; charset=utf-8") }
        router.get("/dashboard/static/dashboard.js") { _, _ in Self.asset(DashboardTemplates.script, type: "text/javascript; charset=utf-8") }
        router.get("/dashboard/login") { request, _ in
            if try await signIn.session(for: request) != nil { return DashboardRenderer.redirect("/dashboard") }
            return loginPage(problem: nil, status: .ok)
        }
        router.post("/dashboard/login") { request, _ in
            let form = try await DashboardForm(request: request)
            do {
                try DashboardSignIn.checkLoginCSRF(form, request: request)
                let cookie = try await signIn.signIn(key: form["key"] ?? "")
                return DashboardRenderer.redirect("/dashboard", extraHeaders: [.setCookie: cookie])
            } catch let problem as DashboardProblem {
                return loginPage(problem: problem.message, status: problem.status)
            }
        }
        action(router, "/dashboard/logout") { request, _, _, _ in
            DashboardRenderer.redirect("/dashboard/login", extraHeaders: [.setCookie: try await signIn.signOut(request)])
        }
        registerOverview(on: router)
        registerJobs(on: router)
        registerCorrections(on: router)
        registerPool(on: router)
        registerPictures(on: router)
    }

    // MARK: the session gate

    /// A GET page for signed-in users; others get the sign-in page, told why when they had a session.
    func page(_ router: Router<APIRequestContext>, _ path: RouterPath, _ handler: @escaping PageHandler) {
        router.get(path) { request, context in
            try await guarded(request) { visitor in try await handler(request, context, visitor) }
        }
    }

    /// A POST action: signed in, the form read, its CSRF token checked, `operatorOnly` enforced.
    func action(_ router: Router<APIRequestContext>, _ path: RouterPath, operatorOnly: Bool = false, _ handler: @escaping ActionHandler) {
        router.post(path) { request, context in
            try await guarded(request) { visitor in
                let form = try await DashboardForm(request: request)
                try DashboardSignIn.checkCSRF(form, session: visitor.session)
                if operatorOnly, !visitor.isOperator {
                    throw DashboardProblem(.forbidden, "Only an operator key may do this.")
                }
                return try await handler(request, context, visitor, form)
            }
        }
    }

    private func guarded(_ request: Request, _ body: (Visitor) async throws -> Response) async throws -> Response {
        guard let session = try await signIn.session(for: request) else {
            if DashboardSignIn.cookie(in: request) != nil {
                return loginPage(problem: "Your session has ended (you signed out, it expired, or its API key was revoked). Sign in again.",
                                 status: .unauthorized)
            }
            if request.method == .get { return DashboardRenderer.redirect("/dashboard/login") }
            return loginPage(problem: "Sign in first.", status: .unauthorized)
        }
        let visitor = Visitor(session: session)
        do {
            return try await body(visitor)
        } catch let problem as DashboardProblem {
            return renderer.message("Cannot do that", problem.message, status: problem.status, tone: "error",
                                    back: ("/dashboard", "Back to the overview"), base: visitor.base)
        } catch let error as APIError where error.status.code < 500 {
            return renderer.message("Cannot do that", error.message, status: error.status, tone: "error",
                                    back: ("/dashboard", "Back to the overview"), base: visitor.base)
        }
    }

    /// The sign-in form, with a fresh login token in a hidden field and its cookie.
    func loginPage(problem: String?, status: HTTPResponse.Status) -> Response {
        let (token, setCookie) = signIn.newLoginToken()
        var context: [String: Any] = ["title": "Sign in", "loginCsrf": token]
        if let problem { context["problem"] = problem }
        return renderer.page("login", context, status: status, extraHeaders: [.setCookie: setCookie])
    }

    static func asset(_ bytes: [UInt8], type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "max-age=300"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
