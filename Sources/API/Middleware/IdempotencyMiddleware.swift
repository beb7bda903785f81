import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceClock
import Storage
import Synchronization

/// Makes every request that changes something safe to send again: one
/// that carries an `Idempotency-Key` header is carried out once, and the
/// same request sent again with the same key (a retry after a timeout, or
/// on another node after the one that answered died) gets the first
/// answer, status, body and `Location`, with `Idempotent-Replayed: true`.
///
/// A key is scoped to the caller (the account, or nobody on the public
/// routes), the method and the path, and kept a day. Sent again with
/// another body it is refused (422): that is a client's mistake, not a
/// retry. Answers of 5xx, 408 and 429 are not kept: nothing was done, and
/// the retry is carried out. Dispatch commands take the key into the
/// dispatch log too (``APIRequestContext/idempotencyKey``), so a retry whose
/// first answer was never kept (its node died between the two writes)
/// still gets the first decision, not a second ride.
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext

    let store: any IdempotentAnswerStore
    let clock: any ServiceClock
    /// The largest body fingerprinted: the routes' own limit.
    let bodyLimit: Int
    private let pruning: Pruning

    /// The request header.
    static let keyHeader = HTTPField.Name("Idempotency-Key")!
    /// The header of an answer given before.
    static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!
    /// The longest key taken; a UUID is 36 characters.
    static let maximumKeyLength = 255
    /// How long answers are kept.
    static let retention: TimeInterval = 86_400

    /// Keeps answers in `store`, dated by `clock`, for bodies of at most `bodyLimit` bytes.
    init(store: any IdempotentAnswerStore, clock: any ServiceClock, bodyLimit: Int = APIRequestContext.maxJSONBody) {
        self.store = store
        self.clock = clock
        self.bodyLimit = bodyLimit
        pruning = Pruning(store: store)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .get, request.method != .head, let key = request.headers[Self.keyHeader] else {
            return try await next(request, context)
        }
        guard (1...Self.maximumKeyLength).contains(key.utf8.count), key.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
        else {
            throw Problem.badRequest(
                "'Idempotency-Key' must be 1 to \(Self.maximumKeyLength) printable ASCII characters without spaces, e.g. a UUID")
        }
        var request = request
        let body = try await request.collectBody(upTo: bodyLimit)
        let scope = "\(context.caller?.username ?? "") \(request.method.rawValue) \(request.uri.path) \(key)"
        let fingerprint = SHA256.hash(data: body.readableBytesView).map { String(format: "%02x", $0) }.joined()
        if let kept = try await store.answer(for: scope) {
            return try Self.replay(kept, key: key, fingerprint: fingerprint)
        }
        var keyed = context
        keyed.idempotencyKey = scope
        let response: Response
        do {
            response = try await next(request, keyed)
        } catch {
            response = ProblemMiddleware.response(to: error, of: request, context: keyed)
        }
        guard Self.isKept(response.status) else { return response }
        let answerBody = try await Self.collect(response.body)
        let answer = IdempotentAnswer(
            scope: scope, fingerprint: fingerprint, status: response.status.code, contentType: response.headers[.contentType],
            location: response.headers[.location], body: Data(answerBody.readableBytesView), answeredAt: clock.now)
        let kept: IdempotentAnswer
        do {
            kept = try await store.keep(answer)
        } catch {
            context.logger.warning("\(request.method) \(request.uri.path): the answer to Idempotency-Key \(key) could not be kept: \(error)")
            return Response(status: response.status, headers: response.headers, body: ResponseBody(byteBuffer: answerBody))
        }
        pruning.now(olderThan: clock.now.addingTimeInterval(-Self.retention))
        guard kept == answer else { return try Self.replay(kept, key: key, fingerprint: fingerprint) }
        return Response(status: response.status, headers: response.headers, body: ResponseBody(byteBuffer: answerBody))
    }

    /// True for the answers a retry must get again: everything but a
    /// server's failure or a "try later" (408, 429), after which nothing was done.
    static func isKept(_ status: HTTPResponse.Status) -> Bool {
        status.code < 500 && status != .requestTimeout && status != .tooManyRequests
    }

    /// `kept`, answered again to a request with the same key and `fingerprint`.
    /// - Throws: ``Problem`` 422 when the key came with another body.
    private static func replay(_ kept: IdempotentAnswer, key: String, fingerprint: String) throws -> Response {
        guard kept.fingerprint == fingerprint else {
            throw Problem.unprocessable(
                "Idempotency-Key '\(key)' was used for another request body; send a new key for a new request")
        }
        var headers: HTTPFields = [Self.replayedHeader: "true"]
        if let contentType = kept.contentType { headers[.contentType] = contentType }
        if let location = kept.location { headers[.location] = location }
        return Response(status: .init(code: kept.status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: kept.body)))
    }

    /// The whole of `body`, as a route's JSON answers are.
    private static func collect(_ body: ResponseBody) async throws -> ByteBuffer {
        let collector = BodyCollector()
        try await body.write(collector)
        return collector.buffer
    }
}

/// Gathers a response body as it is written.
private final class BodyCollector: ResponseBodyWriter, @unchecked Sendable {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        self.buffer.writeBuffer(&buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// Forgets the answers older than a day, at most once every ten minutes and off the request.
private final class Pruning: Sendable {
    private let store: any IdempotentAnswerStore
    private let last = Mutex<Date>(.distantPast)

    init(store: any IdempotentAnswerStore) {
        self.store = store
    }

    func now(olderThan cutoff: Date) {
        let due = last.withLock { last in
            guard cutoff.timeIntervalSince(last) >= 600 else { return false }
            last = cutoff
            return true
        }
        guard due else { return }
        Task { [store] in _ = try? await store.forget(answeredBefore: cutoff) }
    }
}
