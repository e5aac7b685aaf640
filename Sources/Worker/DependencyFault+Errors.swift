import Foundation
import Media
import Pipeline
import Queue
import ReelworkCore
import Store

extension DependencyFault {
    /// The fault `error` shows in one of a worker's dependencies, if it shows one: Redis or
    /// PostgreSQL unreachable or refusing work for a reason of their own (`RedisError.faultCause`,
    /// `PostgresError.faultCause`), or the coordinator or the object store failing a video read
    /// (`MediaError.server`; a worker reads http(s) only from the one its settings name). Nil for
    /// errors of the job or of ours.
    init?(_ error: any Error, config: ReelworkConfig) {
        switch error {
        case let redis as RedisError:
            guard let cause = redis.faultCause else { return nil }
            let url = try? RedisURL(parsing: config.redisURL)
            self.init(.redis, cause, target: url.map { "\($0.host):\($0.port)" } ?? ReelworkConfig.Env.redisURL, detail: redis.message)
        case let postgres as PostgresError:
            guard let cause = postgres.faultCause else { return nil }
            self.init(.postgres, cause, target: Self.postgresTarget(config.databaseURL), detail: "\(postgres)")
        case let media as MediaError:
            guard let server = media.server else { return nil }
            let cause: Cause = switch server {
            case .unreachable: .unreachable
            case .unauthorized: .unauthorized
            case .forbidden: .forbidden
            case .serverError: .serverError
            }
            let (source, target) = Self.videoSource(config)
            self.init(source, cause, target: target, detail: media.message)
        case let stage as StageFailure:
            guard let underlying = stage.underlying else { return nil }
            self.init(underlying, config: config)
        default:
            return nil
        }
    }

    /// Whether the job that met this fault goes back to the queue without spending an attempt:
    /// everything but a coordinator's or store's 5xx, which may be about that one video (its file lost), so
    /// it counts like any transient error and `max_attempts` bounds it.
    var handsTheJobBack: Bool { !((dependency == .coordinator || dependency == .store) && cause == .serverError) }

    /// Where this worker reads videos over the network: the store's endpoint, or the coordinator.
    static func videoSource(_ config: ReelworkConfig) -> (Dependency, target: String) {
        if case .s3(let settings) = config.storage { return (.store, urlTarget(settings.endpoint.absoluteString)) }
        return (.coordinator, urlTarget(config.coordinatorURL))
    }
}
