import FixRecords
import Ingest
import ServiceLifecycle

/// The terminals' TCP and UDP listeners as a service: ``bind()`` binds every
/// configured one before the service group starts (so that they are up,
/// and their ports reported, before the HTTP API answers), and at shutdown
/// the service stops accepting (open connections keep their queued ACKs
/// until the event loops stop, after the archive has written what is
/// queued).
struct IngestListenersService: Service {
    let listeners: IngestListeners
    let tcpPorts: [WireProtocol: Int]
    let udpPorts: [WireProtocol: Int]
    let host: String
    /// Told each listener's name (`line/tcp`) and bound port.
    let report: @Sendable (String, Int) -> Void

    /// Binds every configured listener, in a stable order.
    func bind() async throws {
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

    func run() async throws {
        try? await gracefulShutdown()
        await listeners.close()
    }
}
