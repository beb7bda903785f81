@testable import DispatchService
import FixRecords
import Fleet
import Foundation
import GeoKit
import PropertyBased
import TaxiDispatch
import Testing
import Zones

/// Property-based (x-sheep/swift-property-based): the hand-written JSON of
/// generated dispatch commands and notices, with random texts, positions,
/// durations and times, is the document `JSONEncoder` writes, and reads
/// back as the encoder's document does, so that no value the service meets
/// makes the log or a push message differ from the encoder's. (A time or a
/// duration finer than a `Double` of seconds holds comes back rounded from
/// either; the fixed cases of ``LoggedCommandJSONTests`` read back exactly.) Each case is one generated
/// number that seeds every choice, printed on failure to replay it.
@Suite(.timeLimit(.minutes(20))) struct JSONWriterPropertyTests {
    @Test func generatedCommandsAreJSONEncodersDocuments() async {
        await propertyCheck(count: 2_000, input: Gen.uint64()) { seed in
            var random = SplitMix64(state: seed)
            let logged = LoggedCommand(
                command: Self.command(using: &random), engineTime: Self.duration(using: &random),
                wallTime: Self.date(using: &random))
            let written = try logged.json()
            let encoded = try DispatchLogCoding.makeEncoder().encode(logged)
            #expect(
                try LoggedCommandJSONTests.canonical(written) == LoggedCommandJSONTests.canonical(encoded),
                "\(String(decoding: written, as: UTF8.self))")
            #expect(try LoggedCommandJSONTests.decoded(written) == LoggedCommandJSONTests.decoded(encoded))
        }
    }

    @Test func generatedNoticesAreJSONEncodersDocuments() async {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        await propertyCheck(count: 2_000, input: Gen.uint64()) { seed in
            var random = SplitMix64(state: seed)
            let notice = Self.notice(using: &random)
            let written = try notice.json()
            let encoded = try encoder.encode(notice)
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
            #expect(try JSONDecoder().decode(Notice.self, from: written) == JSONDecoder().decode(Notice.self, from: encoded))
        }
    }

    /// Any command, its texts, positions and times drawn at random.
    static func command(using random: inout SplitMix64) -> DispatchCommand {
        let taxi = TaxiID(text(using: &random))
        switch Int.random(in: 0..<21, using: &random) {
        case 0: return .login(taxi)
        case 1: return .logout(taxi)
        case 2: return .setAvailable(taxi)
        case 3: return .setUnavailable(taxi)
        case 4: return .accept(taxi, eta: Bool.random(using: &random) ? duration(using: &random) : nil)
        case 5: return .refuse(taxi)
        case 6: return .arrived(taxi)
        case 7: return .updateETA(RideRequestID(Int.random(in: 0...Int.max, using: &random)), eta: duration(using: &random))
        case 8: return .passengerAboard(taxi)
        case 9: return .completed(taxi)
        case 10: return .missingClient(taxi)
        case 11:
            return .request(
                PassengerID(text(using: &random)), pickup: coordinate(using: &random), zone: zone(using: &random),
                destination: Bool.random(using: &random) ? coordinate(using: &random) : nil)
        case 12: return .confirm(RideRequestID(Int.random(in: 0...Int.max, using: &random)))
        case 13: return .cancel(RideRequestID(Int.random(in: 0...Int.max, using: &random)))
        case 14:
            return .reserve(
                PassengerID(text(using: &random)), origin: coordinate(using: &random), zone: zone(using: &random),
                destination: coordinate(using: &random), pickupAt: date(using: &random))
        case 15: return .cancelReservation(ReservationID(Int.random(in: 0...Int.max, using: &random)))
        case 16: return .allocate(ReservationID(Int.random(in: 0...Int.max, using: &random)), taxi: taxi)
        case 17:
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return .fleet(.appeared(taxi, zone: zone(using: &random), at: date(using: &random)))
            case 1: return .fleet(.changedZone(taxi, from: zone(using: &random), to: zone(using: &random), at: date(using: &random)))
            case 2: return .fleet(.wentStale(taxi, lastHeard: date(using: &random)))
            default: return .fleet(.cameBack(taxi, zone: zone(using: &random), at: date(using: &random)))
            }
        case 18: return .tick
        default:
            return .replaceZones(ZoneReassignment(
                taxis: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    .init(taxi: TaxiID(text(using: &random)), zone: zone(using: &random))
                },
                requests: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    .init(request: RideRequestID(Int.random(in: 0...Int.max, using: &random)), zone: zone(using: &random))
                },
                reservations: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    .init(reservation: ReservationID(Int.random(in: 0...Int.max, using: &random)), zone: zone(using: &random))
                }))
        }
    }

    /// A notice with each field present or absent at random.
    static func notice(using random: inout SplitMix64) -> Notice {
        func maybe<T>(_ make: (inout SplitMix64) -> T) -> T? {
            Bool.random(using: &random) ? make(&random) : nil
        }
        var notice = Notice(kind: text(using: &random), at: date(using: &random))
        notice.id = maybe { Int64.random(in: 0...Int64.max, using: &$0) }
        notice.rideId = maybe(text)
        notice.reservationId = maybe(text)
        notice.taxiId = maybe(text)
        notice.passengerId = maybe(text)
        notice.zoneId = maybe(text)
        notice.fromZoneId = maybe(text)
        notice.queuePosition = maybe { Int.random(in: 0...100_000, using: &$0) }
        notice.etaS = maybe { Double.random(in: 0..<86_400, using: &$0) }
        notice.confirmBy = maybe(date)
        notice.expiresAt = maybe(date)
        notice.pickupAt = maybe(date)
        notice.state = maybe(text)
        notice.reason = maybe(text)
        notice.pickup = maybe { NoticePoint(coordinate(using: &$0)) }
        notice.destination = maybe { NoticePoint(coordinate(using: &$0)) }
        return notice
    }

    /// Up to 12 characters from ASCII (control characters, quotes and
    /// slashes included), Latin, CJK and emoji.
    static func text(using random: inout SplitMix64) -> String {
        let ranges: [ClosedRange<UInt32>] = [0...0x7F, 0xA0...0x17F, 0x4E00...0x4E80, 0x1F600...0x1F64F]
        return String(String.UnicodeScalarView((0..<Int.random(in: 0...12, using: &random)).compactMap { _ in
            Unicode.Scalar(UInt32.random(in: ranges.randomElement(using: &random)!, using: &random))
        }))
    }

    static func zone(using random: inout SplitMix64) -> ZoneID? {
        Bool.random(using: &random) ? ZoneID(text(using: &random)) : nil
    }

    /// Anywhere on Earth, to the full precision of a `Double`.
    static func coordinate(using random: inout SplitMix64) -> Coordinate {
        Coordinate(longitude: Double.random(in: -180...180, using: &random), latitude: Double.random(in: -90...90, using: &random))
    }

    /// From a nanosecond to thirty years, or none.
    static func duration(using random: inout SplitMix64) -> Duration {
        .nanoseconds(Int64.random(in: 0...(30 * 365 * 86_400 * 1_000_000_000), using: &random))
    }

    /// From 1970 to 2100, to the microsecond.
    static func date(using random: inout SplitMix64) -> Date {
        Date(timeIntervalSince1970: Double(Int64.random(in: 0...(130 * 365 * 86_400 * 1_000_000), using: &random)) / 1_000_000)
    }
}
