import FixRecords
import Ingest
import ServiceLifecycle

/// The terminals' TCP and UDP listeners as a service: it binds every
/// configured one, in a stable order, and then fires ``bound`` (the HTTP
/// API starts after it, so that the ports are up and reported before the
/// API answers). A port that cannot be bound stops the service group. At
/// shutdown the service stops accepting; open connections keep their
/// queued ACKs until the event loops stop, after the archive has written
/// what is queued.
struct IngestListenersService: Service {
    let listeners: IngestListeners
    let tcpPorts: [WireProtocol: Int]
    let udpPorts: [WireProtocol: Int]
    let host: String
    /// Fired once every listener is bound.
    let bound: StartSignal
    /// Told each listener's name (`line/tcp`) and bound port.
    let report: @Sendable (String, Int) -> Void

    func run() async throws {
        do {
            try await bind()
        } catch {
            await listeners.close()
            throw error
        }
        bound.fire()
        try? await gracefulShutdown()
        await listeners.close()
    }

    private func bind() async throws {
        for (wireProtocol, port) in tcpPorts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard let bound = try await IngestProtocols.listenTCP(wireProtocol, listeners: listeners, host: host, port: port)
            else { continue }
            report("\(wireProtocol.rawValue)/tcp", bound)
        }
        for (wireProtocol, port) in udpPorts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard let bound = try await IngestProtocols.listenUDP(wireProtocol, listeners: listeners, host: host, port: port)
            else { continue }
            report("\(wireProtocol.rawValue)/udp", bound)
        }
        listeners.markStarted()
    }
}
