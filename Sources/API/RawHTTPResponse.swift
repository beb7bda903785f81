import Foundation
import HTTPTypes
import NIOHTTP1

/// A whole HTTP/1.1 answer as the bytes on the wire, for the few answers
/// written beneath Hummingbird's HTTP codec: a first request head too large
/// to parse (``FirstRequestHeadHandler``) and a refused WebSocket upgrade
/// (``UpgradeRefusalHandler``). Each closes its connection.
enum RawHTTPResponse {
    /// `status` with `headers` and `body`, then `Connection: close`; the
    /// content length is the body's, and `X-Content-Type-Options: nosniff`
    /// is added when missing, as on every other answer of the API.
    static func bytes(status: HTTPResponse.Status, headers: HTTPFields, body: [UInt8]) -> [UInt8] {
        var fields = headers
        fields[.contentLength] = String(body.count)
        fields[.connection] = "close"
        if fields[.xContentTypeOptions] == nil { fields[.xContentTypeOptions] = "nosniff" }
        let phrase = status.reasonPhrase.isEmpty ? HTTPResponseStatus(statusCode: status.code).reasonPhrase : status.reasonPhrase
        var head = "HTTP/1.1 \(status.code) \(phrase)\r\n"
        for field in fields { head += "\(field.name.rawName): \(field.value)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// `status` with a problem document (RFC 9457) whose detail is `detail`.
    static func problem(_ status: HTTPResponse.Status, detail: String) -> [UInt8] {
        let document = Problem(status: status, detail: detail)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return bytes(
            status: status, headers: [.contentType: "application/problem+json"],
            body: Array((try? encoder.encode(document)) ?? Data()))
    }
}
