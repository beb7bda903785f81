import Hummingbird

/// What every API route knows about its request: Hummingbird's core (the
/// logger with the request id, the path parameters). The caller's identity
/// and role, once the API has accounts, go here, set by the authentication
/// middleware before any controller runs.
public struct APIRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: Source) {
        coreContext = .init(source: source)
    }
}
