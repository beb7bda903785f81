import Foundation
import Hummingbird

/// `/openapi.json`: the API's OpenAPI 3.1 document, which anyone may read:
/// every operation, its schemas, its answers and the roles that may call
/// it (`x-roles`, SPEC A1). The tests hold the routes and the document to each other.
struct OpenAPIController: Sendable {
    /// The document as shipped with the service; nil when the build lost it.
    static let document: Data? = Bundle.module.url(forResource: "openapi", withExtension: "json").flatMap { try? Data(contentsOf: $0) }

    func addRoutes(to router: Router<APIRequestContext>) {
        router.get("/openapi.json") { _, _ -> Response in
            guard let document = Self.document else {
                throw Problem(status: .internalServerError, detail: "the OpenAPI document is missing from this build; rebuild the service")
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: document)))
        }
    }
}
