import Foundation
import Hummingbird
import ObjectStorage
import Media
import NIOPosix
import ReelworkCore
import Store

/// A job's pictures for the dashboard: the sport's own PNG (what `GET /v1/jobs/{id}/picture`
/// draws), and stills of its video at any time (`frame.png?t=SECONDS&w=PIXELS`), decoded on
/// demand from the stored video (seek to the key frame before the time, decode forward), kept only
/// in a bounded memory cache (`StillCache`): the video is the source of truth. New decodes are
/// limited per key (`RateBuckets`).
extension DashboardRoutes {
    /// Widths a still may be asked for: a thumbnail up to a full page.
    static let stillWidths = 32...1280
    static let defaultStillWidth = 640

    func registerPictures(on router: Router<APIRequestContext>) {
        page(router, "/dashboard/jobs/:id/frame.png") { request, context, visitor in
            let id = try Self.jobID(context)
            let (seconds, width) = try Self.stillRequest(request.uri.queryParameters.get("t"), request.uri.queryParameters.get("w"))
            guard let found = try await findJob(id, visitor).video else {
                throw DashboardProblem(.notFound, "The video of job \(id.uuidString.lowercased()) is gone.")
            }
            guard seconds <= found.video.facts.durationSeconds + 1 else {
                throw DashboardProblem(.badRequest, String(format: "t=%.3f is after the end of the video (%.3f s).", seconds, found.video.facts.durationSeconds))
            }
            let (key, time, pixels) = StillCache.key(job: id, seconds: seconds, width: width)
            // The same job, time and width always give the same picture.
            let headers: HTTPFields = [.contentType: "image/png", .cacheControl: "private, max-age=86400"]
            if let png = stillCache.picture(key) {
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: png)))
            }
            guard stillLimiter.admit(visitor.session.key.id.uuidString) else {
                throw APIError.busy(.tooManyRequests, "rate_limited",
                                    "this key asked for more than \(Int(stillLimiter.ratePerSecond)) new stills a second "
                                        + "(\(ClubLimits.Env.stillsPerSecondPerKey)); slow down",
                                    retryAfterSeconds: 1)
            }
            let path = try store.readLocation(key: found.storageKey, validFor: VideoRoutes.redirectSeconds)
            let guards = MediaGuards(maxPixels: backends.config.limits.maxPixels)
            let still: StillFrame
            do {
                still = try await NIOThreadPool.singleton.runIfActive {
                    try FrameGrabber(location: path, guards: guards).still(atSeconds: time, maxWidth: pixels)
                }
            } catch let error as MediaError {
                throw DashboardProblem(.unprocessableContent, "No still of this video: \(error.message)")
            }
            stillCache.store(key, still.png)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: still.png)))
        }
        // The sport's picture as `GET /v1/jobs/{id}/picture` draws it, for the session's key.
        page(router, "/dashboard/jobs/:id/picture.png") { _, context, visitor in
            try await reports.picture(try Self.jobID(context), visitor.caller)
        }
    }

    /// The still's time (`t`, seconds, required) and width (`w`, pixels, optional), checked.
    static func stillRequest(_ time: String?, _ width: String?) throws -> (seconds: Double, width: Int) {
        guard let time, let seconds = Double(time), seconds.isFinite, seconds >= 0 else {
            throw DashboardProblem(.badRequest, "t must be a time in seconds from the video's start (got '\((time ?? "").prefix(40))').")
        }
        guard let width else { return (seconds, defaultStillWidth) }
        guard let pixels = Int(width), stillWidths.contains(pixels) else {
            throw DashboardProblem(.badRequest, "w must be a width in pixels from \(stillWidths.lowerBound) to \(stillWidths.upperBound) (got '\(width.prefix(40))').")
        }
        return (seconds, pixels)
    }
}
