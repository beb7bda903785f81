import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import JSONKit
import Testing
import Zones
@testable import API

/// The hand-written fleet documents are the documents `JSONEncoder` wrote
/// before (issue 19): the same bytes for ordinary positions, and the same
/// values once decoded for any position, names that need escaping included.
@Suite(.timeLimit(.minutes(20))) struct FleetJSONTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// `JSONEncoder`'s document of `GET /v1/zones/{zoneId}/taxis` before it was written by hand.
    struct ZoneTaxisDocument: Codable, Equatable {
        var zoneId: String
        var taxis: [TaxiJSON]
    }

    /// `JSONEncoder`'s document of one taxi of `GET /v1/fleet`.
    struct FleetTaxiDocument: Codable, Equatable {
        var position: TaxiJSON
        var state: String
    }

    static func encoded(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(value))
    }

    /// The live entries of a fleet index holding `positions`, the first one stale.
    static func entries(_ positions: [TaxiPosition]) -> [FleetIndex.Entry] {
        let fleet = FleetIndex(staleAfter: 90)
        for (index, position) in positions.enumerated() {
            _ = fleet.update(position, heardAt: index == 0 ? now.addingTimeInterval(-600) : now)
        }
        return fleet.entries(now: now)
    }

    /// Positions as terminals send them: full-precision coordinates, whole and
    /// fractional speeds and headings, times with and without milliseconds.
    static func ordinaryPositions(count: Int) -> [TaxiPosition] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { index in
            TaxiPosition(
                taxiId: TaxiID("TX\(100_000 + index)"),
                coordinate: Coordinate(
                    longitude: -74.05 + Double.random(in: 0..<0.2, using: &generator),
                    latitude: 40.6 + Double.random(in: 0..<0.3, using: &generator)),
                time: now.addingTimeInterval(-Double(Int.random(in: 0..<86_400_000, using: &generator)) / 1000),
                speedKmh: index % 3 == 0 ? 0 : Double(Int.random(in: 0..<1200, using: &generator)) / 10,
                heading: index % 2 == 0 ? Double(Int.random(in: 0..<360, using: &generator)) : Double.random(in: 0..<360, using: &generator),
                zoneId: index % 5 == 0 ? nil : ZoneID(String(Int.random(in: 1...263, using: &generator))))
        }
    }

    /// Ids that must be escaped, unusual numbers and times.
    static let awkwardPositions: [TaxiPosition] = [
        TaxiPosition(taxiId: "say \"cab\"", coordinate: Coordinate(longitude: -0.0, latitude: 1e-7), time: Date(timeIntervalSince1970: 0),
                     speedKmh: 1e-5, heading: 359.99999999999994, zoneId: "back\\slash/zone"),
        TaxiPosition(taxiId: "tab\there\nnew\u{1}line", coordinate: Coordinate(longitude: 179.99999999999997, latitude: -89.5),
                     time: Date(timeIntervalSince1970: 253_402_300_799.999), speedKmh: 250, heading: 0.5, zoneId: "Zürich Höngg"),
        TaxiPosition(taxiId: "出租车 🚕", coordinate: Coordinate(longitude: 7.42, latitude: 43.73),
                     time: Date(timeIntervalSince1970: 1_790_000_000.0005), speedKmh: 123456.789, heading: 90, zoneId: nil),
    ]

    @Test func ordinaryPositionsGiveJSONEncodersBytes() throws {
        let entries = Self.entries(Self.ordinaryPositions(count: 500))
        let zone = try FleetJSON.zoneTaxis(zoneId: "161", entries: entries)
        #expect(zone == (try Self.encoded(ZoneTaxisDocument(zoneId: "161", taxis: entries.map(TaxiJSON.init)))))
        let fleet = try FleetJSON.fleet(entries) { $0.text.hasSuffix("7") ? "busy" : "available" }
        let reference = entries.map { FleetTaxiDocument(position: TaxiJSON($0), state: $0.position.taxiId.text.hasSuffix("7") ? "busy" : "available") }
        #expect(fleet == (try Self.encoded(reference)))
    }

    @Test func awkwardNamesAndNumbersDecodeToTheSameValues() throws {
        let entries = Self.entries(Self.awkwardPositions)
        let zone = try FleetJSON.zoneTaxis(zoneId: "a \"zone\"/\\", entries: entries)
        let decodedZone = try JSONDecoder().decode(ZoneTaxisDocument.self, from: Data(zone))
        #expect(decodedZone == ZoneTaxisDocument(zoneId: "a \"zone\"/\\", taxis: entries.map(TaxiJSON.init)))
        #expect(decodedZone.taxis.map(\.taxiId) == entries.map(\.position.taxiId.text))
        #expect(zone == (try Self.encoded(decodedZone)), "and JSONEncoder's very bytes")

        let fleet = try FleetJSON.fleet(entries) { _ in "off\"Duty" }
        let decodedFleet = try JSONDecoder().decode([FleetTaxiDocument].self, from: Data(fleet))
        #expect(decodedFleet == entries.map { FleetTaxiDocument(position: TaxiJSON($0), state: "off\"Duty") })
        #expect(decodedFleet.first?.position.stale == true, "the first taxi is stale")
        #expect(decodedFleet.first { $0.position.taxiId == "出租车 🚕" }?.position.zoneId == nil)
    }

    @Test func aNumberJSONCannotHoldIsAnError() {
        var position = Self.awkwardPositions[2]
        position.speedKmh = .infinity
        #expect(throws: EncodingError.self) { try FleetJSON.fleet(Self.entries([position])) { _ in "busy" } }
    }

    /// Every time is written as `FixTime.iso8601` writes it, and as a
    /// `DateFormatter` in UTC writes its whole seconds followed by its milliseconds.
    @Test func timesAreISO8601InUTCWithMilliseconds() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let seconds = Int64.random(in: 0...253_402_300_799, using: &generator)
            let milliseconds = Int.random(in: 0..<1000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1000)
            let expected = formatter.string(from: Date(timeIntervalSince1970: Double(seconds))) + String(format: ".%03dZ", milliseconds)
            #expect(Self.written(date) == "\"\(expected)\"")
            #expect(FixTime.iso8601(date) == expected)
        }
        #expect(Self.written(Date(timeIntervalSince1970: 951_782_400.25)) == "\"2000-02-29T00:00:00.250Z\"")
    }

    /// `date` as ``JSONWriter/fixTime(_:)`` writes it.
    static func written(_ date: Date) -> String {
        var writer = JSONWriter()
        writer.fixTime(date)
        return String(decoding: writer.finish(), as: UTF8.self)
    }
}
