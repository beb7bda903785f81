import FixRecords
import Testing
@testable import Ingest

@Suite(.timeLimit(.minutes(20))) struct WireProtocolTests {
    @Test func traccarPortsForDevicesAlreadyConfiguredForIt() {
        #expect(WireProtocol.gt06.defaultPort == 5023)
        #expect(WireProtocol.teltonika.defaultPort == 5027)
        #expect(WireProtocol.osmand.defaultPort == 5055)
        #expect(WireProtocol(rawValue: "teltonika-udp") == .teltonikaUDP)
    }
}

@Suite(.timeLimit(.minutes(20))) struct ProtocolVectorsTests {
    @Test(.enabled(if: ProtocolVectors.available, "../shared/data/protocols is absent"))
    func everyProtocolOfTheDataSetIsPresent() {
        let names = Set(ProtocolVectors.all.map(\.protocolName))
        #expect(names == ["gt06", "teltonika", "osmand", "nmea-gprmc"])
        #expect(ProtocolVectors.all.count >= 140)
        #expect(ProtocolVectors.bytes(hex: "78780D01") == [0x78, 0x78, 0x0D, 0x01])
    }
}
