import Foundation
import GeoKit
import JSONKit
import Testing
@testable import Ingest

/// `mytaxi serve` with GT06 and Teltonika terminals over loopback: log in,
/// send a position, get the protocol's ACK, see the taxi in the API; an
/// unknown terminal is refused the protocol's way.
@Suite(.serialized, .timeLimit(.minutes(20))) struct BinaryListenerTests {
    typealias TCPClient = ServeCommandTests.TCPClient
    static let gt06IMEI = "359710049090123"
    static let teltonikaIMEI = "352094087231984"
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-binary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "device_id,taxi_id\n\(Self.gt06IMEI),GT-1\n\(Self.teltonikaIMEI),TE-1\n"
            .write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
    }

    func start() async throws -> ServiceProcess {
        try await ServiceProcess(
            arguments: [
                "--zones", CommandRunner.packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson").path,
                "--devices", "devices.csv", "--data-dir", "data", "--http-port", "0", "--line-port", "off",
                "--nmea-port", "off", "--osmand-port", "off", "--teltonika-port", "0", "--gt06-port", "0",
            ],
            directory: directory, expectedListeners: ["teltonika/tcp", "teltonika-udp/udp", "gt06/tcp", "http"])
    }

    func live(_ service: ServiceProcess, taxi: String) async throws -> JSONValue? {
        let (status, body) = try await service.get("/v1/taxis/\(taxi)")
        return status == 200 ? try JSONParser.parse(body) : nil
    }

    @Test func aGT06TerminalLogsInAndItsLocationIsAcknowledgedAndLive() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await start()
        defer { service.stop() }
        let now = Int(Date().timeIntervalSince1970) - 10
        let client = try TCPClient(port: service.ports["gt06/tcp"]!)
        client.send(Self.gt06Frame(type: 0x01, content: Self.bcd("0" + Self.gt06IMEI), serial: 1))
        #expect(client.receive(atLeast: 10).bytes == GT06Decoder.acknowledgement(type: 0x01, serial: 1, long: false))
        client.send(Self.gt06Frame(type: 0x12, content: Self.gpsBlock(seconds: now) + [0x01, 0xCC, 0x00, 0x28, 0x7D, 0x00, 0x1F, 0x71], serial: 2))
        #expect(client.receive(atLeast: 10).bytes == GT06Decoder.acknowledgement(type: 0x12, serial: 2, long: false))
        let taxi = try await #require(try live(service, taxi: "GT-1"))
        #expect(taxi["time"]?.scalarText == FixTimeText.iso8601(seconds: now))
        #expect(taxi["zoneId"] == .string("230"), "Times Square is in zone 230")
        #expect(taxi["speedKmh"] == .number(20))

        let stranger = try TCPClient(port: service.ports["gt06/tcp"]!)
        stranger.send(Self.gt06Frame(type: 0x01, content: Self.bcd("0123456789012345"), serial: 1))
        let refused = stranger.receive(atLeast: 1)
        #expect(refused.bytes.isEmpty && refused.closed, "an unknown GT06 terminal is closed without a login ACK")
    }

    @Test func aTeltonikaTerminalOverTCPAndUDPIsAcknowledgedAndLive() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await start()
        defer { service.stop() }
        let now = Int(Date().timeIntervalSince1970) - 20
        let client = try TCPClient(port: service.ports["teltonika/tcp"]!)
        client.send([0x00, 0x0F] + Array(Self.teltonikaIMEI.utf8))
        #expect(client.receive(atLeast: 1).bytes == [0x01])
        let data = Self.codec8(records: [Self.record(seconds: now - 1), Self.record(seconds: now)])
        let crc = data.withUnsafeBytes { CRC16.ibm($0) }
        client.send([0, 0, 0, 0, 0, 0, 0, UInt8(data.count)] + data + [0, 0, UInt8(crc >> 8), UInt8(crc & 0xFF)])
        #expect(client.receive(atLeast: 4).bytes == [0, 0, 0, 2])
        #expect(try await live(service, taxi: "TE-1")?["time"]?.scalarText == FixTimeText.iso8601(seconds: now))

        let udpData = Self.codec8(records: [Self.record(seconds: now + 5)])
        let body: [UInt8] = [0xCA, 0xFE, 0x01, 0x07, 0x00, 0x0F] + Array(Self.teltonikaIMEI.utf8) + udpData
        let reply = ServeCommandTests.udpExchange(port: service.ports["teltonika-udp/udp"]!, payload: [0, UInt8(body.count)] + body)
        #expect(reply == [0x00, 0x05, 0xCA, 0xFE, 0x01, 0x07, 0x01])
        #expect(try await live(service, taxi: "TE-1")?["time"]?.scalarText == FixTimeText.iso8601(seconds: now + 5))

        let stranger = try TCPClient(port: service.ports["teltonika/tcp"]!)
        stranger.send([0x00, 0x0F] + Array("111111111111111".utf8))
        #expect(stranger.receive(atLeast: 2) == ([0x00], true), "an unknown IMEI gets 00 and is closed")
    }

    /// A short GT06 frame with its length, serial, CRC and tail.
    static func gt06Frame(type: UInt8, content: [UInt8], serial: UInt16) -> [UInt8] {
        let body: [UInt8] = [UInt8(content.count + 5), type] + content + [UInt8(serial >> 8), UInt8(serial & 0xFF)]
        let crc = body.withUnsafeBytes { CRC16.x25($0) }
        return [0x78, 0x78] + body + [UInt8(crc >> 8), UInt8(crc & 0xFF), 0x0D, 0x0A]
    }

    static func bcd(_ digits: String) -> [UInt8] {
        let values = digits.utf8.map { $0 - UInt8(ascii: "0") }
        return stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
    }

    /// A GT06 GPS block at Times Square, 20 km/h heading east, GPS fixed.
    static func gpsBlock(seconds: Int) -> [UInt8] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
        let latitude = UInt32(40.758896 * 1_800_000), longitude = UInt32(73.985130 * 1_800_000)
        let status: UInt16 = 0x1000 | 0x0400 | 0x0800 | 90
        return [UInt8(c.year! - 2000), UInt8(c.month!), UInt8(c.day!), UInt8(c.hour!), UInt8(c.minute!), UInt8(c.second!), 0xC9]
            + bigEndian(latitude) + bigEndian(longitude) + [20, UInt8(status >> 8), UInt8(status & 0xFF)]
    }

    /// A Codec 8 AVL record near Times Square with 12 satellites and no IO elements.
    static func record(seconds: Int) -> [UInt8] {
        let milliseconds = UInt64(seconds) * 1000
        return (0..<8).map { UInt8(milliseconds >> (56 - 8 * UInt64($0)) & 0xFF) } + [1]
            + bigEndian(UInt32(bitPattern: Int32(-73.985130 * 1e7))) + bigEndian(UInt32(bitPattern: Int32(40.758896 * 1e7)))
            + [0, 10, 0, 90, 12, 0, 30] + [0, 0, 0, 0, 0, 0]
    }

    static func codec8(records: [[UInt8]]) -> [UInt8] {
        [0x08, UInt8(records.count)] + records.joined() + [UInt8(records.count)]
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
