import NIOCore

/// What one terminal's TCP connection may hold of the server (SPEC I1, A4):
/// how long it may take to say who it is, how long it may stay silent, and
/// how many connections the ingest listeners keep open together, so that a
/// broken or hostile client cannot hold sockets, memory or file descriptors.
public struct IngestConnectionLimits: Sendable, Equatable {
    /// A new connection that has not named a registered device (GT06 login,
    /// Teltonika IMEI, a fix line) this long after it opened is closed.
    public var identificationTimeout: TimeAmount = .seconds(30)
    /// An identified terminal silent this long is closed. It must outlast
    /// the longest reporting period SPEC I1 allows (10 min), with a margin
    /// for a late report.
    public var idleTimeout: TimeAmount = .seconds(900)
    /// Open TCP connections of all ingest listeners together; one more is
    /// closed as soon as it is accepted.
    public var maxConnections = 20_000

    public init() {}
}
