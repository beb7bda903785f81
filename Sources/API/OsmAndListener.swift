import Foundation
import Hummingbird
import Ingest

/// The OsmAnd listener (Traccar Client phone app) on its own HTTP port:
/// GET or POST `/` with the fix in the query string, a form body or a JSON
/// body; 200 once the fix is durably archived, 400 with the reason when it
/// cannot be decoded, the device is unknown, or validation refuses it.
struct OsmAndListener: Sendable {
    let pipeline: IngestPipeline
    /// Largest request body read.
    static let maxBodyBytes = 64 * 1024

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { request, _ in try await receive(request) }
        router.post("/") { request, _ in try await receive(request) }
        return router
    }

    private func receive(_ request: Request) async throws -> Response {
        let clock = ContinuousClock()
        let arrived = clock.now
        let body = try await request.body.collect(upTo: Self.maxBodyBytes)
        let bodyBytes = Array(body.readableBytesView)
        let query = request.uri.query ?? ""
        pipeline.metrics.frameReceived(.osmand)
        let fix: DeviceFix
        do {
            if bodyBytes.first == UInt8(ascii: "{") {
                fix = try OsmAndDecoder.decode(jsonBody: bodyBytes, now: pipeline.now)
            } else {
                let form = String(decoding: bodyBytes, as: UTF8.self)
                fix = try OsmAndDecoder.decode(query: query.isEmpty ? form : query, now: pipeline.now)
            }
        } catch {
            pipeline.metrics.frameRejected(.osmand, error.reason)
            return Self.plain(.badRequest, error.message)
        }
        switch pipeline.accept(fix, via: .osmand) {
        case .failure(let reason):
            return Self.plain(.badRequest, "fix of device \(fix.deviceId) refused: \(reason.rawValue)")
        case .success(let accepted):
            do {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    pipeline.sink.submit([accepted]) { continuation.resume(with: $0) }
                }
            } catch {
                pipeline.metrics.archiveFailed()
                return Self.plain(.serviceUnavailable, "the fix could not be stored; send it again")
            }
            pipeline.metrics.ackSent(.osmand, latency: clock.now - arrived)
            return Response(status: .ok)
        }
    }

    private static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}
