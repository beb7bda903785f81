import Accounts
import DispatchRuntime
import Hummingbird
import Logging
import NIOCore
import Storage

/// Turns every error a route throws into an RFC 9457 problem document:
/// a ``Problem`` as it is, what the dispatcher or the account service
/// refused by its case (``Problem/init(_:)``), Hummingbird's own errors
/// (no such route) with their status, a body over the route's limit as a
/// 413 (logged at info: anyone can send one), a store that cannot be read
/// as a 503 (the client may try again), and anything else as a 500; a 503 or a 500 names
/// the request id and nothing internal (no stack, SQL or path), the error
/// itself going to the log.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return Self.response(to: error, of: request, context: context)
        }
    }

    /// The problem document that answers `error`, thrown while answering `request`.
    static func response(to error: any Error, of request: Request, context: Context) -> Response {
        switch error {
        case let problem as Problem:
            return problem.response()
        case let error as DispatcherError:
            return Problem(error).response()
        case let error as AccountError:
            return Problem(error).response()
        case let error as HTTPError:
            if error.status == .notFound, let allowed = DocumentedMethods.service.methods(for: request.uri.path),
                !allowed.contains(request.method.rawValue)
            {
                return Problem(
                    status: .methodNotAllowed, detail: "\(request.uri.path) answers \(allowed.joined(separator: ", ")), not \(request.method)",
                    headers: [.allow: allowed.joined(separator: ", ")]
                ).response()
            }
            return Problem(status: error.status, detail: error.body ?? "\(request.method) \(request.uri.path): \(error.status.reasonPhrase)")
                .response()
        case is NIOTooManyBytesError:
            context.logger.info("\(request.method) \(request.uri.path): refused a body over \(context.maxUploadSize) bytes")
            return Problem(
                status: .contentTooLarge,
                detail: "the request body is larger than the \(context.maxUploadSize / 1024) KiB this endpoint reads"
            ).response()
        case let error as StorageError:
            context.logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            return Problem(
                status: .serviceUnavailable,
                detail: "the store cannot answer now; try again shortly, or report request id \(context.id)"
            ).response()
        default:
            context.logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            return Problem(
                status: .internalServerError,
                detail: "the server could not answer this request; report request id \(context.id)"
            ).response()
        }
    }
}
