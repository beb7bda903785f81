import ServiceLifecycle
import UnixSignals

/// Reloads what an operator edits in place (the devices file, the zones
/// file) on every SIGHUP, until the service shuts down.
struct HangupReloadService: Service {
    let reload: @Sendable () async -> Void

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            await reload()
        }
    }
}
