import Foundation
import Hummingbird

/// An RFC 9457 problem document (`application/problem+json`): how every
/// API error is reported, with a `detail` that says what to fix.
struct Problem: Codable, Sendable {
    var type: String = "about:blank"
    var title: String
    var status: Int
    var detail: String

    /// The response carrying this problem.
    func response() -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = (try? encoder.encode(self)) ?? Data()
        return Response(
            status: HTTPResponse.Status(code: status),
            headers: [.contentType: "application/problem+json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func notFound(_ detail: String) -> Problem {
        Problem(title: "Not Found", status: 404, detail: detail)
    }

    static func badRequest(_ detail: String) -> Problem {
        Problem(title: "Bad Request", status: 400, detail: detail)
    }

    static func unavailable(_ detail: String) -> Problem {
        Problem(title: "Service Unavailable", status: 503, detail: detail)
    }
}
