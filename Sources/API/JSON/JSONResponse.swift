import Foundation
import Hummingbird

/// The API's JSON answers: one encoder setting (sorted keys, so answers are
/// stable for clients and tests) for every controller.
enum JSONResponse {
    /// 200 with `value` as JSON.
    static func ok(_ value: some Encodable) throws -> Response {
        try response(value, status: .ok)
    }

    /// 200 with a JSON document already written (``FleetJSON``).
    static func ok(json: [UInt8]) -> Response {
        ok(json: ByteBuffer(bytes: json))
    }

    /// 200 with a JSON document already in a buffer (``RecentFleetDocuments``).
    static func ok(json: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: json))
    }

    /// 201 with `value` as JSON and the new resource's path in `Location`.
    static func created(_ value: some Encodable, location: String) throws -> Response {
        var response = try response(value, status: .created)
        response.headers[.location] = location
        return response
    }

    /// 202 with `value` as JSON: the request was taken, and what follows
    /// happens elsewhere (an e-mail).
    static func accepted(_ value: some Encodable) throws -> Response {
        try response(value, status: .accepted)
    }

    private static func response(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}
