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

    private enum CodingKeys: String, CodingKey {
        case type, title, statusCode = "status", detail
    }

    init(status: HTTPResponse.Status, detail: String) {
        self.title = status.reasonPhrase
        self.statusCode = status.code
        self.detail = detail
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        response()
    }

    /// The response carrying this problem.
    func response() -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = (try? encoder.encode(self)) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/problem+json"],
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
}
