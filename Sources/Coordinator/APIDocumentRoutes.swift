import APIDocument
import Hummingbird
import NIOCore

/// `GET /openapi.json`, open to anyone like `/healthz`: the API's OpenAPI 3.1 document, byte for
/// byte the repository's `openapi/openapi.json`.
struct APIDocumentRoutes {
    func register(on router: Router<APIRequestContext>) {
        // One buffer for every answer: the document never changes while the process runs.
        let body = ByteBuffer(bytes: APIDocument.bytes)
        router.get("/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
        }
    }
}
