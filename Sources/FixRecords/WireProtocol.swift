/// The wire protocols terminals speak to the ingest server (SPEC I1, I2).
///
/// The raw value is the name used on the command line (`mytaxi decode
/// --protocol NAME`), in metric labels and in the archive.
public enum WireProtocol: String, CaseIterable, Sendable {
    /// Our own text protocol, one fix per line, over TCP or UDP (see docs/line-protocol.md).
    case line
    /// NMEA 0183 `$GPRMC` sentences behind a device identifier, over TCP.
    case nmea
    /// OsmAnd / Traccar Client over HTTP (query string, form or JSON body).
    case osmand
    /// Teltonika Codec 8 / 8 Extended with TCP framing (IMEI handshake, CRC-16/IBM).
    case teltonika
    /// Teltonika Codec 8 / 8 Extended in UDP datagrams (own header and ACK).
    case teltonikaUDP = "teltonika-udp"
    /// Concox GT06 binary frames over TCP (CRC-ITU / X.25).
    case gt06

    /// The port a listener for this protocol uses unless configured otherwise.
    /// GT06, Teltonika and OsmAnd use Traccar's ports so that devices already
    /// set up for it just work; the others are ours.
    public var defaultPort: Int {
        switch self {
        case .line: 5100
        case .nmea: 5005
        case .osmand: 5055
        case .teltonika, .teltonikaUDP: 5027
        case .gt06: 5023
        }
    }
}
