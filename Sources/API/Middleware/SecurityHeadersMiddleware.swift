import HTTPTypes
import Hummingbird

/// Headers every answer carries so that a browser treats what the service
/// sends as what it says it is, and runs only the service's own scripts:
/// `X-Content-Type-Options: nosniff` (a JSON body is never run as a script
/// or read as a page), and a `Content-Security-Policy` that allows scripts,
/// styles, images and connections from the service itself only, no inline
/// script and no framing, so that text injected into the map (a zone's
/// name, say) cannot run even if a sink were missed.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The map's policy: its page, script, style, Leaflet, the API and the
    /// push socket all come from the service (Leaflet's own images are
    /// `data:` URLs); nothing inline, nothing from elsewhere.
    static var contentSecurityPolicy: String {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            + "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        return response
    }
}
