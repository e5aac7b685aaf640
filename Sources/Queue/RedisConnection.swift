import CHiredis
import Foundation
import Metrics
import ReelworkCore

/// One blocking connection to Redis through hiredis. Not thread-safe: use it from one thread
/// at a time. The hiredis context and every reply are freed here; nothing else sees a pointer.
public final class RedisConnection {
    private var context: UnsafeMutablePointer<redisContext>?
    public let url: RedisURL

    /// Connects, authenticates and selects the database; throws `.connection` errors.
    /// `timeout` bounds connecting and every reply, so a blocking command's own timeout must be shorter.
    public init(_ url: RedisURL, timeout: TimeInterval = 10) throws {
        self.url = url
        let tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        guard let ctx = redisConnectWithTimeout(url.host, Int32(url.port), tv) else {
            throw RedisError(.connection, "cannot allocate a hiredis context")
        }
        context = ctx
        if ctx.pointee.err != 0 {
            let message = Self.contextError(ctx)
            redisFree(ctx)
            context = nil
            throw RedisError(.connection, "cannot connect to \(url.host):\(url.port): \(message)")
        }
        _ = redisSetTimeout(ctx, tv)
        if let password = url.password { try command("AUTH", password) }
        if url.database != 0 { try command("SELECT", String(url.database)) }
    }

    deinit {
        if let context { redisFree(context) }
    }

    /// False once the connection has failed; the owner should open a new one.
    public var isHealthy: Bool { context.map { $0.pointee.err == 0 } ?? false }

    /// Sends one command and returns its reply; an error reply throws `.server` with Redis's message.
    @discardableResult
    public func command(_ arguments: String...) throws -> RedisReply {
        try command(arguments)
    }

    @discardableResult
    public func command(_ arguments: [String]) throws -> RedisReply {
        guard let context, context.pointee.err == 0 else {
            throw RedisError(.connection, "connection to \(url.host):\(url.port) is closed")
        }
        let started = ContinuousClock.now
        let raw = Self.withArgv(arguments) { argc, argv, lengths in
            redisCommandArgv(context, argc, argv, lengths)
        }
        if !Self.isBlocking(arguments) { Self.roundTrip.record(duration: ContinuousClock.now - started) }
        guard let raw else {
            throw RedisError(.connection, "lost connection to \(url.host):\(url.port): \(Self.contextError(context))")
        }
        let reply = raw.assumingMemoryBound(to: redisReply.self)
        defer { freeReplyObject(raw) }
        return try Self.decode(reply)
    }

    /// Every command's time from send to reply (`reelwork_redis_roundtrip_seconds`), but for those
    /// that wait on purpose: an idle worker's BLPOP lasts its whole timeout and is no latency.
    static let roundTrip = Metrics.Timer(label: MetricName.redisRoundTrip)

    static func isBlocking(_ arguments: [String]) -> Bool {
        guard let name = arguments.first?.uppercased() else { return false }
        if ["BLPOP", "BRPOP", "BRPOPLPUSH", "BLMOVE", "BLMPOP", "BZPOPMIN", "BZPOPMAX", "BZMPOP", "WAIT", "WAITAOF"].contains(name) {
            return true
        }
        return (name == "XREAD" || name == "XREADGROUP") && arguments.contains { $0.uppercased() == "BLOCK" }
    }

    /// Calls `body` with argc, argv and the argument lengths. The arguments are copied into memory
    /// owned here for the whole call (a pointer from `withUnsafeBufferPointer` is only valid inside
    /// its closure); lengths make the copies binary-safe, so a U+0000 inside an argument survives.
    private static func withArgv<T>(_ arguments: [String],
                                    _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> T) -> T {
        let copies = arguments.map { argument -> UnsafeMutableBufferPointer<CChar> in
            let bytes = Array(argument.utf8)
            let copy = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(copy).copyMemory(from: source)
            }
            return copy
        }
        defer { copies.forEach { $0.deallocate() } }
        var pointers = copies.map { UnsafePointer($0.baseAddress) }
        let lengths = arguments.map { $0.utf8.count }
        return pointers.withUnsafeMutableBufferPointer { argv in
            lengths.withUnsafeBufferPointer { body(Int32(arguments.count), argv.baseAddress!, $0.baseAddress!) }
        }
    }

    private static func decode(_ reply: UnsafeMutablePointer<redisReply>) throws -> RedisReply {
        let r = reply.pointee
        switch Int32(r.type) {
        case REDIS_REPLY_STRING:
            return .string(text(r))
        case REDIS_REPLY_STATUS:
            return .status(text(r))
        case REDIS_REPLY_ERROR:
            throw RedisError(.server, text(r))
        case REDIS_REPLY_INTEGER:
            return .integer(Int(r.integer))
        case REDIS_REPLY_NIL:
            return .null
        case REDIS_REPLY_ARRAY:
            var items: [RedisReply] = []
            items.reserveCapacity(Int(r.elements))
            for i in 0..<Int(r.elements) {
                guard let element = r.element[i] else { items.append(.null); continue }
                items.append(try decode(element))
            }
            return .array(items)
        default:
            throw RedisError(.protocolViolation, "unexpected reply type \(r.type)")
        }
    }

    private static func text(_ r: redisReply) -> String {
        guard let str = r.str else { return "" }
        return str.withMemoryRebound(to: UInt8.self, capacity: Int(r.len)) {
            String(decoding: UnsafeBufferPointer(start: $0, count: Int(r.len)), as: UTF8.self)
        }
    }

    private static func contextError(_ ctx: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafePointer(to: ctx.pointee.errstr) {
            $0.withMemoryRebound(to: CChar.self, capacity: 128) { String(cString: $0) }
        }
    }
}
