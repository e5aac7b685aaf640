import Hummingbird
import ReelworkCore

/// The per-address limit in front of every route (`RateBuckets`): over it, 429 with
/// `Retry-After: 1` before the request costs a key lookup or a page.
struct AddressLimitMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext
    let limiter: RateBuckets

    func handle(_ request: Request, context: APIRequestContext,
                next: (Request, APIRequestContext) async throws -> Response) async throws -> Response {
        guard limiter.admit(context.clientAddress) else {
            throw APIError.busy(.tooManyRequests, "rate_limited",
                                "this address made more than \(Int(limiter.ratePerSecond)) requests a second "
                                    + "(\(ClubLimits.Env.requestsPerSecondPerAddress)); slow down",
                                retryAfterSeconds: 1)
        }
        return try await next(request, context)
    }
}
