import Logging
import Synchronization

/// Whether the service itself cut an API connection short (its first
/// request head came too slowly or too large), which makes what Hummingbird
/// then logs about that connection's failed negotiation a debug line, not
/// an error: 200 slow clients must not write 200 error lines.
final class ConnectionCut: Sendable {
    private let marked = Atomic(false)

    /// Notes that the service cut the connection.
    func mark() {
        marked.store(true, ordering: .relaxed)
    }

    /// Whether the service cut the connection.
    var isMarked: Bool { marked.load(ordering: .relaxed) }

    /// `logger`, whose errors are logged at debug once the connection was cut.
    func logger(_ logger: Logger) -> Logger {
        let handler = logger.handler
        var quiet = Logger(label: logger.label) { _ in CutConnectionLogHandler(base: handler, cut: self) }
        quiet.logLevel = logger.logLevel
        return quiet
    }
}

/// Passes every entry on to `base`, an error at debug once `cut` is marked.
struct CutConnectionLogHandler: LogHandler {
    var base: any LogHandler
    let cut: ConnectionCut

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        guard event.level >= .error, cut.isMarked else { return base.log(event: event) }
        guard base.logLevel <= .debug else { return }
        var demoted = event
        demoted.level = .debug
        base.log(event: demoted)
    }
}
