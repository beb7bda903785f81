import Foundation
import Ingest

/// Everything `mytaxi serve` needs, from flags, a config file, or defaults
/// (in that order of precedence).
public struct ServiceConfiguration: Sendable, Equatable {
    /// The zone GeoJSON file.
    public var zonesPath: String
    /// Zone id property (nil: feature id, then properties.id).
    public var zoneIdProperty: String?
    /// The `device_id,taxi_id` CSV file; reloaded on SIGHUP.
    public var devicesPath: String
    /// Where the archive lives.
    public var dataDirectory: String
    /// Address every listener binds to.
    public var bindHost: String = "127.0.0.1"
    /// HTTP API port.
    public var httpPort: Int = 8080
    /// TCP listener port per protocol; 0 picks a free port, absent means off.
    public var tcpPorts: [WireProtocol: Int] = Self.defaultTCPPorts
    /// UDP listener port per protocol; 0 picks a free port, absent means off.
    public var udpPorts: [WireProtocol: Int] = Self.defaultUDPPorts
    /// Silence after which a taxi is stale, seconds.
    public var staleAfterSeconds: Double = 90
    /// Silence after which a terminal's connection is closed, seconds.
    public var idleTimeoutSeconds: Double = 300
    /// Fix validation limits.
    public var validation = ValidationRules()

    public static let defaultTCPPorts: [WireProtocol: Int] = [
        .line: WireProtocol.line.defaultPort, .nmea: WireProtocol.nmea.defaultPort,
        .osmand: WireProtocol.osmand.defaultPort, .teltonika: WireProtocol.teltonika.defaultPort,
        .gt06: WireProtocol.gt06.defaultPort,
    ]
    public static let defaultUDPPorts: [WireProtocol: Int] = [
        .line: WireProtocol.line.defaultPort, .teltonikaUDP: WireProtocol.teltonikaUDP.defaultPort,
    ]

    public init(zonesPath: String, devicesPath: String, dataDirectory: String) {
        self.zonesPath = zonesPath
        self.devicesPath = devicesPath
        self.dataDirectory = dataDirectory
    }
}
