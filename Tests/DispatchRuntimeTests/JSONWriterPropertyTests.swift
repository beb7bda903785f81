@testable import DispatchRuntime
import DispatchCore
import FixRecords
import Fleet
import Foundation
import GeoKit
import PropertyBased
import Testing
import Zones

/// Property-based (x-sheep/swift-property-based): the hand-written JSON of
/// generated dispatch commands and notices is the document `JSONEncoder`
/// writes, and reads back as the encoder's document does, so that no value
/// the service meets makes the log or a push message differ from the
/// encoder's. Every command case and every notice kind is drawn, with ids
/// over all of `Int`, texts of quotes, backslashes, slashes, control
/// characters and every plane of Unicode, numbers at the edges of their
/// JSON text (negative zero, subnormal, beyond 2^53, the largest finite,
/// and NaN and infinities, which both must refuse), durations of either
/// sign up to `Int64.max` seconds, and times from before 1970 to far
/// beyond 9999. (A time or a duration finer than a `Double` of seconds
/// holds comes back rounded from either; the fixed cases of
/// ``LoggedCommandJSONTests`` read back exactly.) A command's document is
/// compared parsed, its keys in any order; a notice's byte for byte, its
/// contract. Each case is one generated number that seeds every choice,
/// printed on failure to replay it.
@Suite(.timeLimit(.minutes(20))) struct JSONWriterPropertyTests {
    @Test func generatedCommandsAreJSONEncodersDocuments() async {
        await propertyCheck(count: 5_000, input: Gen.uint64()) { seed throws in
            var random = SplitMix64(state: seed)
            let logged = LoggedCommand(
                command: Self.command(using: &random), engineTime: Self.duration(using: &random),
                wallTime: Self.date(using: &random))
            let writing = Result { try logged.json() }, encoding = Result { try DispatchLogCoding.makeEncoder().encode(logged) }
            guard case .success(let written) = writing, case .success(let encoded) = encoding else {
                #expect(writing.isFailure && encoding.isFailure, "only one refused \(logged)")
                return
            }
            #expect(
                try LoggedCommandJSONTests.canonical(written) == LoggedCommandJSONTests.canonical(encoded),
                "\(String(decoding: written, as: UTF8.self))")
            #expect(try LoggedCommandJSONTests.decoded(written) == LoggedCommandJSONTests.decoded(encoded))
        }
    }

    @Test func generatedNoticesAreJSONEncodersDocuments() async {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        await propertyCheck(count: 5_000, input: Gen.uint64()) { seed throws in
            var random = SplitMix64(state: seed)
            let notice = Self.notice(using: &random)
            let writing = Result { try notice.json() }, encoding = Result { try encoder.encode(notice) }
            guard case .success(let written) = writing, case .success(let encoded) = encoding else {
                #expect(writing.isFailure && encoding.isFailure, "only one refused \(notice)")
                return
            }
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
        case 6: return .arrived(taxi, rider: rider(using: &random))
        case 7: return .updateETA(RideRequestID(Int.random(in: Int.min...Int.max, using: &random)), eta: duration(using: &random))
        case 8: return .passengerAboard(taxi, rider: rider(using: &random))
        case 9: return .completed(taxi, rider: rider(using: &random))
        case 10: return .missingClient(taxi, rider: rider(using: &random))
        case 11:
            return .request(
                PassengerID(text(using: &random)), pickup: coordinate(using: &random), zone: zone(using: &random),
                destination: Bool.random(using: &random) ? coordinate(using: &random) : nil,
                sharing: Bool.random(using: &random) ? sharing(using: &random) : nil)
        case 12: return .confirm(RideRequestID(Int.random(in: Int.min...Int.max, using: &random)))
        case 13: return .cancel(RideRequestID(Int.random(in: Int.min...Int.max, using: &random)))
        case 14:
            return .reserve(
                PassengerID(text(using: &random)), origin: coordinate(using: &random), zone: zone(using: &random),
                destination: coordinate(using: &random), pickupAt: date(using: &random))
        case 15: return .cancelReservation(ReservationID(Int.random(in: Int.min...Int.max, using: &random)))
        case 16: return .allocate(ReservationID(Int.random(in: Int.min...Int.max, using: &random)), taxi: taxi)
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
                    .init(request: RideRequestID(Int.random(in: Int.min...Int.max, using: &random)), zone: zone(using: &random))
                },
                reservations: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    .init(reservation: ReservationID(Int.random(in: Int.min...Int.max, using: &random)), zone: zone(using: &random))
                }))
        }
    }

    /// A shared ride's rider named in a driver's report, or none.
    static func rider(using random: inout SplitMix64) -> RideRequestID? {
        Bool.random(using: &random) ? RideRequestID(Int.random(in: Int.min...Int.max, using: &random)) : nil
    }

    /// A shared request's sharing, joining a taxi or not.
    static func sharing(using random: inout SplitMix64) -> RideSharing {
        let join = Bool.random(using: &random)
            ? RideSharing.Join(
                taxi: TaxiID(text(using: &random)), pickupIndex: Int.random(in: Int.min...Int.max, using: &random),
                dropoffIndex: Int.random(in: Int.min...Int.max, using: &random),
                eta: Bool.random(using: &random) ? duration(using: &random) : nil)
            : nil
        return RideSharing(directTrip: duration(using: &random), join: join)
    }

    /// The kinds of notice ``DispatchNotices`` and the API write, and now
    /// and then any text.
    static let noticeKinds = [
        "driver_state", "taxi_changed_zone", "taxi_joined_queue", "taxi_left_queue", "request_opened", "request_refused",
        "offer", "taxi_assigned", "offer_refused", "offer_timed_out", "offer_withdrawn", "queued", "request_confirmed",
        "ride_cancelled", "taxi_arrived", "passenger_aboard", "ride_completed", "client_missing", "eta_changed",
        "reservation_made", "reservation_cancelled", "reservation_awaiting_taxi", "reservation_allocated", "itinerary",
    ]

    /// A notice of any kind with each field present or absent at random.
    static func notice(using random: inout SplitMix64) -> Notice {
        func maybe<T>(_ make: (inout SplitMix64) -> T) -> T? {
            Bool.random(using: &random) ? make(&random) : nil
        }
        let kind = Int.random(in: 0..<10, using: &random) == 0 ? text(using: &random) : noticeKinds.randomElement(using: &random)!
        var notice = Notice(kind: kind, at: noticeTime(using: &random))
        notice.id = maybe { Int64.random(in: 0...Int64.max, using: &$0) }
        notice.rideId = maybe(text)
        notice.reservationId = maybe(text)
        notice.taxiId = maybe(text)
        notice.passengerId = maybe(text)
        notice.zoneId = maybe(text)
        notice.fromZoneId = maybe(text)
        notice.queuePosition = maybe { Int.random(in: Int.min...Int.max, using: &$0) }
        notice.etaS = maybe { number(usually: 0...86_400, using: &$0) }
        notice.confirmBy = maybe(noticeTime)
        notice.expiresAt = maybe(noticeTime)
        notice.pickupAt = maybe(noticeTime)
        notice.state = maybe(text)
        notice.reason = maybe(text)
        notice.pickup = maybe { NoticePoint(coordinate(using: &$0)) }
        notice.destination = maybe { NoticePoint(coordinate(using: &$0)) }
        notice.stops = maybe { random in
            (0..<Int.random(in: 0...4, using: &random)).map { _ in
                NoticeStop(
                    rideId: text(using: &random), stop: Bool.random(using: &random) ? "pickup" : "dropoff",
                    point: NoticePoint(coordinate(using: &random)))
            }
        }
        return notice
    }

    /// Up to 40 characters from ASCII (control characters and DEL), the
    /// characters JSON escapes, C1 controls, Latin, combining marks, the line
    /// and paragraph separators and the byte-order mark, CJK, emoji and any
    /// plane of Unicode.
    static func text(using random: inout SplitMix64) -> String {
        let ranges: [ClosedRange<UInt32>] = [
            0...0x7F, 0x22...0x22, 0x2F...0x2F, 0x5C...0x5C, 0x80...0x17F, 0x300...0x36F, 0x2028...0x2029, 0xFEFF...0xFEFF,
            0x4E00...0x4E80, 0x1F600...0x1F64F, 0...0x10FFFF,
        ]
        return String(String.UnicodeScalarView((0..<Int.random(in: 0...40, using: &random)).compactMap { _ in
            Unicode.Scalar(UInt32.random(in: ranges.randomElement(using: &random)!, using: &random))
        }))
    }

    static func zone(using random: inout SplitMix64) -> ZoneID? {
        Bool.random(using: &random) ? ZoneID(text(using: &random)) : nil
    }

    /// Mostly anywhere on Earth to the full precision of a `Double`, now
    /// and then a number at the edges of JSON's text or none at all.
    static func coordinate(using random: inout SplitMix64) -> Coordinate {
        Coordinate(longitude: number(usually: -180...180, using: &random), latitude: number(usually: -90...90, using: &random))
    }

    /// Mostly a number in `range`; else one whose text is an edge case:
    /// signed zeros, the range's ends, whole numbers and tenths, numbers
    /// written with an exponent (tiny, subnormal, beyond 2^53, the largest),
    /// any bit pattern (NaN and infinities included).
    static func number(usually range: ClosedRange<Double>, using random: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            return [
                0, -0.0, range.lowerBound, range.upperBound, 0.1, -0.1, 1e-4, 1e-5, -1e-7, 0.3 - 0.1, 1e14, 1e14 - 0.5, 1e15 + 0.5,
                9_007_199_254_740_993, -1e16, 1e21, 1e22, .leastNonzeroMagnitude, -.leastNormalMagnitude, .ulpOfOne,
                .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan,
            ].randomElement(using: &random)!
        case 1: return Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &random))
        case 2: return Double(Int64.random(in: -100_000_000...100_000_000, using: &random)) / 10
        case 3: return Double(Int64.random(in: Int64.min...Int64.max, using: &random))
        default: return Double.random(in: range, using: &random)
        }
    }

    /// From a nanosecond to thirty years, mostly; else of either sign, up
    /// to `Int64.max` seconds and any attoseconds.
    static func duration(using random: inout SplitMix64) -> Duration {
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return Duration(
                secondsComponent: Int64.random(in: Int64.min...Int64.max, using: &random),
                attosecondsComponent: Int64.random(in: -999_999_999_999_999_999...999_999_999_999_999_999, using: &random))
        case 1: return .nanoseconds(Int64.random(in: Int64.min...0, using: &random))
        default: return .nanoseconds(Int64.random(in: 0...(30 * 365 * 86_400 * 1_000_000_000), using: &random))
        }
    }

    /// From 1970 to 2100 to the microsecond, mostly; else any time whose
    /// milliseconds are a `Double`'s number, before 1970 and far beyond.
    static func date(using random: inout SplitMix64) -> Date {
        guard Int.random(in: 0..<4, using: &random) == 0 else {
            return Date(timeIntervalSince1970: Double(Int64.random(in: 0...(130 * 365 * 86_400 * 1_000_000), using: &random)) / 1_000_000)
        }
        return Date(timeIntervalSince1970: number(usually: -1e11...1e11, using: &random))
    }

    /// A notice's time: any millisecond the service's time text writes,
    /// 1970 to the end of 9999 (``FixTime/latestUnixSeconds``).
    static func noticeTime(using random: inout SplitMix64) -> Date {
        Date(timeIntervalSince1970: Double(Int64.random(in: 0...Int64(FixTime.latestUnixSeconds * 1000), using: &random)) / 1000)
    }
}

extension Result {
    /// Whether this is a failure: both encoders must refuse the same values.
    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
