import FixRecords
import Ingest

/// Which decoder serves which protocol on which transport: the one place
/// that maps a configured listener to its decoder type.
enum IngestProtocols {
    /// Starts the TCP listener of `wireProtocol`; nil when it has no TCP form.
    static func listenTCP(_ wireProtocol: WireProtocol, listeners: IngestListeners, host: String, port: Int) async throws -> Int? {
        switch wireProtocol {
        case .line:
            return try await listeners.listenTCP(LineProtocolDecoder.self, host: host, port: port)
        case .nmea:
            return try await listeners.listenTCP(NMEADecoder.self, host: host, port: port)
        case .osmand:
            return nil  // HTTP, served by OsmAndListener.
        case .teltonika:
            return try await listeners.listenTCP(TeltonikaDecoder.self, host: host, port: port)
        case .gt06:
            return try await listeners.listenTCP(GT06Decoder.self, host: host, port: port)
        case .teltonikaUDP:
            return nil
        }
    }

    /// Starts the UDP listener of `wireProtocol`; nil when it has no UDP form.
    static func listenUDP(_ wireProtocol: WireProtocol, listeners: IngestListeners, host: String, port: Int) async throws -> Int? {
        switch wireProtocol {
        case .line:
            return try await listeners.listenUDP(LineProtocolDecoder.self, host: host, port: port)
        case .teltonikaUDP:
            return try await listeners.listenUDP(TeltonikaDatagramDecoder.self, host: host, port: port)
        case .nmea, .osmand, .teltonika, .gt06:
            return nil
        }
    }
}
