import ServiceLifecycle
import UnixSignals

/// Reloads the devices file on every SIGHUP, until the service shuts down.
struct DevicesReloadService: Service {
    let reload: @Sendable () -> Void

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            reload()
        }
    }
}
