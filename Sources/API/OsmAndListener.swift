import FixRecords
import Fleet
import Foundation
import Hummingbird
import Ingest

/// The OsmAnd listener (Traccar Client phone app) on its own HTTP port:
/// GET or POST `/` with the fix in the query string, a form body or a JSON
/// body; 200 once the fix is durably archived, and 200 too (with the reason
/// in the body) when validation refuses it (a duplicate, a jump, no GPS
/// lock), as the other protocols acknowledge refused fixes: the app resends
/// every non-2xx answer, and its upload queue would stick behind a fix that
/// resending cannot make better. 400 with the reason when the request cannot
/// be decoded or the device is unknown; 401 when the device's secret (the
/// `key` parameter of the query string or form body) is missing or wrong,
/// or none is registered while `--require-device-secret` is on; 503 when
/// the fix could not be stored or the archive is behind, so that the app
/// sends it again.
public struct OsmAndListener: Sendable {
    let pipeline: IngestPipeline

    /// A listener that hands its fixes to `pipeline`.
    public init(pipeline: IngestPipeline) {
        self.pipeline = pipeline
    }
    /// Largest request body read.
    static let maxBodyBytes = 64 * 1024

    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        addRoutes(to: router, path: "/")
        return router
    }

    /// Receives fixes at `path` of `router` as well: the API's port serves
    /// them at `/osmand`, so that a driver's web app on a phone (a
    /// phone-as-terminal set-up) sends its position to the origin it was
    /// loaded from.
    func addRoutes<Context: RequestContext>(to router: Router<Context>, path: RouterPath) {
        router.get(path) { request, _ in try await receive(request) }
        router.post(path) { request, _ in try await receive(request) }
    }

    /// Answers at `path` of `router` that the service takes no OsmAnd
    /// fixes (its OsmAnd protocol is off), so the path is known either way.
    static func addRefusals<Context: RequestContext>(to router: Router<Context>, path: RouterPath) {
        let refusal = "this service takes no OsmAnd fixes: its OsmAnd protocol is off (serve --osmand-port off); send them to another protocol's port"
        router.get(path) { _, _ -> Response in throw Problem.notFound(refusal) }
        router.post(path) { _, _ -> Response in throw Problem.notFound(refusal) }
    }

    private func receive(_ request: Request) async throws -> Response {
        let clock = ContinuousClock()
        let arrived = clock.now
        let body = try await request.body.collect(upTo: Self.maxBodyBytes)
        let bodyBytes = Array(body.readableBytesView)
        let query = request.uri.query ?? ""
        pipeline.metrics.frameReceived(.osmand)
        let fix: DeviceFix
        // The parameters (and so `key`) are the query string's, or a form body's when there is no query string.
        let isJSON = bodyBytes.first == UInt8(ascii: "{")
        let parameters = query.isEmpty && !isJSON ? String(decoding: bodyBytes, as: UTF8.self) : query
        do {
            if isJSON {
                fix = try OsmAndDecoder.decode(jsonBody: bodyBytes, now: pipeline.now)
            } else {
                fix = try OsmAndDecoder.decode(query: parameters, now: pipeline.now)
            }
        } catch {
            pipeline.metrics.frameRejected(.osmand, error.reason)
            return Self.plain(.badRequest, error.message)
        }
        guard !pipeline.isBacklogged else {
            return Self.plain(.serviceUnavailable, "the archive is behind; send the fix again later")
        }
        let credential = OsmAndDecoder.key(query: parameters).map {
            DeviceCredential(deviceId: fix.deviceId, secret: DeviceSecret(presented: $0))
        }
        switch pipeline.accept(fix, via: .osmand, credential: credential) {
        case .failure(.unknownDevice):
            return Self.plain(.badRequest, "device \(fix.deviceId) refused: unknown_device (add it to the devices file)")
        case .failure(let reason) where reason.refusesSecret:
            var response = Self.plain(
                .unauthorized, "device \(fix.deviceId) refused: \(reason.rawValue) (the `key` parameter must be the device's secret)")
            response.headers[.wwwAuthenticate] = #"Key realm="mytaxi-osmand""#
            return response
        case .failure(let reason):
            pipeline.metrics.ackSent(.osmand, latency: clock.now - arrived)
            return Self.plain(.ok, "fix of device \(fix.deviceId) refused: \(reason.rawValue)")
        case .success(let accepted):
            do {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    pipeline.submit([accepted]) { continuation.resume(with: $0) }
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
