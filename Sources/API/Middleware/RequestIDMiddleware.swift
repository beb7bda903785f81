import HTTPTypes
import Hummingbird

/// Puts the request id (Hummingbird's, also in every log line of the
/// request as `hb.request.id`) into the `X-Request-Id` response header, on
/// errors too, so that a client's report can be matched with the log.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    static var headerName: HTTPField.Name { HTTPField.Name("X-Request-Id")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[Self.headerName] = context.id
        return response
    }
}
