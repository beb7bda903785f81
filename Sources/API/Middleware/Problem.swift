import Foundation
import Hummingbird

/// An RFC 9457 problem document (`application/problem+json`): how every
/// API error is reported, with a `detail` that says what to fix. Thrown
/// from a route, it becomes the answer with its status (``ProblemMiddleware``
/// turns every other error into one too).
struct Problem: Error, Codable, Sendable, HTTPResponseError {
    var type: String = "about:blank"
    var title: String
    var status: HTTPResponse.Status { HTTPResponse.Status(code: statusCode) }
    /// The HTTP status code, as the document's `status` member.
    var statusCode: Int
    var detail: String
    /// Every field's problem, when a request broke rules of several fields (an extension member of RFC 9457).
    var fieldProblems: [FieldProblemJSON]?
    /// The places an address may mean, when it named none surely (an extension member).
    var candidates: [PlaceCandidateJSON]?
    /// Headers the answer carries besides its content type (`WWW-Authenticate`, `Retry-After`).
    var headers: HTTPFields = [:]

    private enum CodingKeys: String, CodingKey {
        case type, title, statusCode = "status", detail, fieldProblems = "errors", candidates
    }

    init(status: HTTPResponse.Status, detail: String, headers: HTTPFields = [:]) {
        self.title = status.reasonPhrase
        self.statusCode = status.code
        self.detail = detail
        self.headers = headers
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        response()
    }

    /// The response carrying this problem.
    func response() -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = (try? encoder.encode(self)) ?? Data()
        var headers = headers
        headers[.contentType] = "application/problem+json"
        return Response(
            status: status, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func notFound(_ detail: String) -> Problem {
        Problem(status: .notFound, detail: detail)
    }

    static func badRequest(_ detail: String) -> Problem {
        Problem(status: .badRequest, detail: detail)
    }

    static func unavailable(_ detail: String) -> Problem {
        Problem(status: .serviceUnavailable, detail: detail)
    }

    /// 401: no valid bearer token; the answer names the scheme (RFC 6750).
    static func unauthorized(_ detail: String) -> Problem {
        Problem(status: .unauthorized, detail: detail, headers: [.wwwAuthenticate: "Bearer realm=\"mytaxi\""])
    }

    /// 409: the request does not fit the current state (a second open ride, an offer to answer first).
    static func conflict(_ detail: String) -> Problem {
        Problem(status: .conflict, detail: detail)
    }

    /// 422: well-formed but refused by a rule (a pickup outside the service area, a reservation too soon).
    static func unprocessable(_ detail: String) -> Problem {
        Problem(status: .unprocessableContent, detail: detail)
    }

    /// 429: too many attempts; try again after `retryAfter` seconds.
    static func tooManyRequests(_ detail: String, retryAfter: Int) -> Problem {
        Problem(status: .tooManyRequests, detail: detail, headers: [.retryAfter: "\(retryAfter)"])
    }
}
