import Foundation
import Hummingbird
import NIOCore
import ReelworkCore

/// JSON in and out, with the project's one encoder/decoder configuration.
enum JSONResponse {
    static func make<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try ReelworkJSON.encoder.encode(value)
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Decodes a JSON request body of at most `limit` bytes; an empty or oversized body is a 4xx.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        guard let value = try await decodeIfPresent(type, from: request, limit: limit) else {
            throw APIError(.badRequest, "empty_body", "the request needs a JSON body")
        }
        return value
    }

    /// As `decode`, for a route whose body may be left out: an empty body gives nil.
    static func decodeIfPresent<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T? {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch {
            throw APIError(.contentTooLarge, "body_too_large",
                           "the JSON body is larger than the limit of \(limit) bytes (\(InputLimits.Env.maxJSONBytes))")
        }
        guard buffer.readableBytes > 0 else { return nil }
        do {
            return try ReelworkJSON.decoder.decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw APIError.invalidJSON(error)
        }
    }
}
