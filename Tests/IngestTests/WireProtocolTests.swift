import Testing
@testable import Ingest

@Suite struct WireProtocolTests {
    @Test func traccarPortsForDevicesAlreadyConfiguredForIt() {
        #expect(WireProtocol.gt06.defaultPort == 5023)
        #expect(WireProtocol.teltonika.defaultPort == 5027)
        #expect(WireProtocol.osmand.defaultPort == 5055)
        #expect(WireProtocol(rawValue: "teltonika-udp") == .teltonikaUDP)
    }
}
