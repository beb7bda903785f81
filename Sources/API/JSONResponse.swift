import Foundation
import Hummingbird

/// The API's JSON answers: one encoder setting (sorted keys, so answers are
/// stable for clients and tests) for every controller.
enum JSONResponse {
    /// 200 with `value` as JSON.
    static func ok(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}
