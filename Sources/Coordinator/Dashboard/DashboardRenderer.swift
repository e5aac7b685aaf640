import DashboardTemplates
import Foundation
import Hummingbird
import Mustache

/// Renders the dashboard's pages from its Mustache templates, with the headers every page gets:
/// no caching (pages show live state and a CSRF token), no framing, and a content policy that
/// allows only the dashboard's own script and stylesheet.
struct DashboardRenderer: Sendable {
    let library: MustacheLibrary

    init() throws {
        var library = MustacheLibrary()
        for (name, text) in DashboardTemplates.templates {
            try library.register(text, named: name)
        }
        self.library = library
    }

    static let headers: HTTPFields = [
        .contentType: "text/html; charset=utf-8",
        .cacheControl: "no-store",
        .init("X-Frame-Options")!: "DENY",
        .init("X-Content-Type-Options")!: "nosniff",
        .init("Referrer-Policy")!: "same-origin",
        .contentSecurityPolicy: "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'",
    ]

    /// The page `template` with `context`, or a plain 500 if the template is missing (a build mistake).
    func page(_ template: String, _ context: [String: Any], status: HTTPResponse.Status = .ok,
              extraHeaders: HTTPFields = [:]) -> Response {
        var headers = Self.headers
        headers.append(contentsOf: extraHeaders)
        guard let html = library.render(context, withTemplate: template) else {
            return Response(status: .internalServerError, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "missing template \(template)")))
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A page that says one thing (an error, or what an action did) with a link onwards.
    func message(_ heading: String, _ text: String, status: HTTPResponse.Status = .ok, tone: String = "", back: (href: String, label: String)?,
                 base: [String: Any]) -> Response {
        var context = base
        context["title"] = heading
        context["heading"] = heading
        context["text"] = text
        context["tone"] = tone
        if let back { context["back"] = ["href": back.href, "label": back.label] }
        return page("message", context, status: status)
    }

    static func redirect(_ location: String, extraHeaders: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.location: location, .cacheControl: "no-store"]
        headers.append(contentsOf: extraHeaders)
        return Response(status: .seeOther, headers: headers)
    }
}
