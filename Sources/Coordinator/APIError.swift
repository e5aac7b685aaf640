import Foundation
import Hummingbird
import Queue
import ReelworkCore
import Store

/// An error the API answers with: a status code and `{error: {code, message}}`.
public struct APIError: Error, HTTPResponseError, CustomStringConvertible {
    public let status: HTTPResponse.Status
    public let code: String
    public let message: String
    /// Extra response headers (e.g. `Retry-After`).
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// A 503 or 429 that tells the client when to come back.
    static func busy(_ status: HTTPResponse.Status, _ code: String, _ message: String, retryAfterSeconds: Int) -> APIError {
        var error = APIError(status, code, message)
        error.headers[.retryAfter] = String(retryAfterSeconds)
        return error
    }

    public var description: String { "\(status.code) \(code): \(message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try JSONResponse.make(APIErrorBody(code: code, message: message), status: status)
        for field in headers { response.headers.append(field) }
        return response
    }

    /// Maps any error to what the client should see. Unknown errors become a 500 without internals;
    /// so does a `DecodingError` that is not the request's (`invalidJSON` names those): data the
    /// server stored and cannot read back is its own fault, not a bad request.
    public static func from(_ error: any Error) -> APIError {
        switch error {
        case let api as APIError:
            return api
        case let reelwork as ReelworkError:
            switch reelwork {
            case .invalidRequest(let m): return APIError(.badRequest, "invalid_request", m)
            case .notFound(let m): return APIError(.notFound, "not_found", m)
            case .conflict(let m): return APIError(.conflict, "conflict", m)
            case .invalidInput(let m): return APIError(.unprocessableContent, "invalid_input", m)
            case .unavailable(let m): return APIError(.serviceUnavailable, "unavailable", m)
            case .configuration(let m): return APIError(.internalServerError, "configuration", m)
            case .needsPerson(let m): return APIError(.unprocessableContent, "needs_person", m)
            }
        case let http as HTTPError:
            return APIError(http.status, http.status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_"),
                            http.body ?? http.status.reasonPhrase)
        case let classified as any ClassifiedError where classified.kind == .transient:
            return unavailable("unavailable", "the request could not be completed", classified)
        default:
            return APIError(.internalServerError, "internal", "internal error; the coordinator's log has the details")
        }
    }

    /// 503 naming the dependency that failed (`redis`, `postgres`) and nothing more: its address and
    /// the driver's words stay in the log (the error middleware logs every 5xx with its cause).
    static func unavailable(_ code: String, _ what: String, _ cause: any Error) -> APIError {
        APIError(.serviceUnavailable, code, "\(what): \(dependency(of: cause)) is unavailable now; try again shortly")
    }

    /// Which backing service an error came from, by its type.
    static func dependency(of error: any Error) -> String {
        switch error {
        case is RedisError: "redis"
        case is PostgresError: "postgres"
        default: "a backing service"
        }
    }

    /// A request body that does not decode: 400 `invalid_json`, naming the field and the problem.
    static func invalidJSON(_ error: DecodingError) -> APIError {
        APIError(.badRequest, "invalid_json", describe(error))
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the body" : "field '" + keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + "'"
        }
        switch error {
        case .keyNotFound(let key, let ctx): return "missing field '\((ctx.codingPath + [key]).map(\.stringValue).joined(separator: "."))'"
        case .valueNotFound(_, let ctx): return "\(path(ctx.codingPath)) must not be null"
        case .typeMismatch(let type, let ctx): return "\(path(ctx.codingPath)) should be \(type)"
        case .dataCorrupted(let ctx):
            return ctx.codingPath.isEmpty ? "the body is not valid JSON" : "\(path(ctx.codingPath)) is invalid: \(ctx.debugDescription)"
        @unknown default: return "the body could not be decoded"
        }
    }
}
