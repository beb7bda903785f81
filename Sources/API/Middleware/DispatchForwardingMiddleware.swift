import AsyncHTTPClient
import DispatchRuntime
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import Storage

/// On a node of several that does not decide dispatch, passes every
/// dispatch command (a ride request, a booking, a driver's action or
/// availability, a driver's login and logout, which log the taxi in and
/// out: any request other than GET or HEAD under the routes it guards) on
/// to the node that does, adding the client's address to `X-Forwarded-For`, and answers with that node's answer,
/// status, headers and body as they are. So a 2xx means durable in the
/// dispatch log whichever node the client reached; the deciding node checks
/// the bearer token itself, against the same accounts.
///
/// Reads (GET) are answered here, from this node's copy of the state,
/// which replays the owner's log every half second. While no node holds
/// the dispatch lease, or the one that does cannot be reached, the answer
/// is 503 with `Retry-After`: nothing was done, and a retry soon reaches
/// the next owner.
struct DispatchForwardingMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext

    let dispatcher: Dispatcher

    /// The header a passed-on request carries, so that a node that receives
    /// one while it does not decide (the lease moved meanwhile) answers 503
    /// instead of passing it on again.
    static let forwardedHeader = HTTPField.Name("Mytaxi-Forwarded")!
    /// The largest command body passed on; the routes' own limits are lower.
    static let bodyLimit = 1 << 20
    /// How long the deciding node has to answer: a command takes
    /// milliseconds, and a request in flight when that node was killed may
    /// hear nothing until this runs out, so the client soon retries (with
    /// its `Idempotency-Key`) on the next owner.
    static let timeout: TimeAmount = .seconds(10)

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .get, request.method != .head else { return try await next(request, context) }
        switch dispatcher.role {
        case .deciding:
            return try await next(request, context)
        case .following(let owner?) where request.headers[Self.forwardedHeader] == nil:
            return try await forward(request, to: owner.address, context: context)
        case .following(let owner):
            throw Problem(
                status: .serviceUnavailable,
                detail: "\(DispatcherError.decidedElsewhere(owner: owner)); nothing was changed", headers: [.retryAfter: "1"])
        }
    }

    private func forward(_ request: Request, to address: String, context: Context) async throws -> Response {
        var outgoing = HTTPClientRequest(url: Self.url(address, request.uri))
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers where !HopByHopHeaders.names.contains(field.name) && field.name != .xForwardedFor {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        outgoing.headers.add(name: Self.forwardedHeader.rawName, value: "dispatch")
        var forwardedFor = request.headers[values: .xForwardedFor]
        if let peer = context.remoteAddress?.ipAddress { forwardedFor.append(peer) }
        if !forwardedFor.isEmpty {
            outgoing.headers.add(name: HTTPField.Name.xForwardedFor.rawName, value: forwardedFor.joined(separator: ", "))
        }
        outgoing.body = HTTPClientRequest.Body.bytes(try await request.body.collect(upTo: Self.bodyLimit))
        let answer: HTTPClientResponse
        let body: ByteBuffer
        do {
            answer = try await HTTPClient.shared.execute(outgoing, timeout: Self.timeout)
            body = try await answer.body.collect(upTo: 16 << 20)
        } catch {
            context.logger.warning("\(request.method) \(request.uri.path): the node deciding dispatch at \(address) did not answer: \(error)")
            throw Problem(
                status: .serviceUnavailable,
                detail: "the node deciding dispatch did not answer, so whether it was done is not known; "
                    + "send it again with the same Idempotency-Key, which is carried out at most once", headers: [.retryAfter: "1"])
        }
        var headers = HTTPFields()
        for header in answer.headers {
            guard let name = HTTPField.Name(header.name), !HopByHopHeaders.names.contains(name) else { continue }
            headers.append(HTTPField(name: name, value: header.value))
        }
        return Response(status: .init(code: Int(answer.status.code)), headers: headers, body: ResponseBody(byteBuffer: body))
    }

    /// The owner's URL for `uri`: its advertised base, then this request's path and query.
    private static func url(_ address: String, _ uri: URI) -> String {
        let base = address.hasSuffix("/") ? String(address.dropLast()) : address
        return base + uri.description
    }
}

/// Headers that belong to one connection and are not passed on (RFC 9110
/// §7.6.1), and the length and host, which the client sets anew.
enum HopByHopHeaders {
    static let names: Set<HTTPField.Name> = [
        .connection, .transferEncoding, .te, .trailer, .upgrade, .proxyAuthorization, .proxyAuthenticate,
        .contentLength, HTTPField.Name("Host")!, HTTPField.Name("Keep-Alive")!,
    ]
}
