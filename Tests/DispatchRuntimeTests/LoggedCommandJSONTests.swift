@testable import DispatchRuntime
import DispatchCore
import FixRecords
import Fleet
import Foundation
import GeoKit
import ServiceClock
import Storage
import Testing
import Zones

/// The hand-written JSON of the dispatch log's entries: the same document
/// as `JSONEncoder`'s, read back by the same decoder, so a log holds old
/// and new entries alike.
@Suite(.timeLimit(.minutes(20))) struct LoggedCommandJSONTests {
    static let at = Date(timeIntervalSince1970: 1_790_000_000.123)
    static let pickup = Coordinate(longitude: -73.9855, latitude: 40.758)
    static let destination = Coordinate(longitude: -73.7781, latitude: 40.6413)

    /// Every command, each optional present and absent, with texts that
    /// need escaping.
    static let commands: [DispatchCommand] = [
        .login("T1"), .login("T1", seats: 7), .logout("T1"), .setAvailable("T1"), .setUnavailable("T1"),
        .accept("T1", eta: .seconds(312)), .accept("T1", eta: nil), .refuse("T1"), .arrived("T1"),
        .updateETA(RideRequestID(7), eta: .milliseconds(90_500)), .passengerAboard("T1"), .completed("T1"),
        .missingClient("T1"),
        .request("P\"1\\/é\u{1}\n\t", pickup: pickup, zone: "230", destination: destination),
        .request("p1", pickup: pickup, zone: nil, destination: nil),
        .request("p1", pickup: pickup, zone: "230", destination: destination, seats: 3),
        .request("p1", pickup: pickup, zone: "230", destination: nil,
                 walk: PickupWalk(from: destination, seconds: 143.27, metres: 171.3, routed: true)),
        .confirm(RideRequestID(1)), .cancel(RideRequestID(Int.max)),
        .reserve("p1", origin: pickup, zone: "13", destination: destination, pickupAt: at.addingTimeInterval(3_600)),
        .reserve("p1", origin: pickup, zone: nil, destination: destination, pickupAt: Date(timeIntervalSince1970: 0)),
        .reserve("p1", origin: pickup, zone: "13", destination: destination, pickupAt: at.addingTimeInterval(5_400), seats: 6),
        .reserve("p1", origin: pickup, zone: "13", destination: destination, pickupAt: at.addingTimeInterval(7_200),
                 walk: PickupWalk(from: destination, seconds: 61, metres: 84.5, routed: false)),
        .cancelReservation(ReservationID(3)), .allocate(ReservationID(3), taxi: "T2"),
        .fleet(.appeared("T1", zone: "230", at: at)), .fleet(.appeared("T1", zone: nil, at: at)),
        .fleet(.changedZone("T1", from: "230", to: "13", at: at)), .fleet(.changedZone("T1", from: nil, to: nil, at: at)),
        .fleet(.wentStale("T1", lastHeard: at)), .fleet(.cameBack("T1", zone: "a zone/with slash", at: at)),
        .tick,
        .replaceZones(ZoneReassignment(taxis: [], requests: [], reservations: [])),
        .replaceZones(ZoneReassignment(
            taxis: [.init(taxi: "T1", zone: "230"), .init(taxi: "T\"2", zone: nil)],
            requests: [.init(request: RideRequestID(4), zone: "13"), .init(request: RideRequestID(9), zone: nil)],
            reservations: [.init(reservation: ReservationID(2), zone: nil), .init(reservation: ReservationID(5), zone: "43")])),
    ]

    /// Engine times around the edges of `Duration`'s two halves.
    static let engineTimes: [Duration] = [
        .zero, .seconds(5) + .nanoseconds(3), .seconds(-1), .seconds(1_000_000_000) + .nanoseconds(1), .seconds(Int64.max / 2),
    ]

    /// Decodes as the replay does.
    static func decoded(_ data: Data) throws -> LoggedCommand {
        try DispatchLogCoding.decode(LoggedCommand.self, from: data)
    }

    /// A document with its keys sorted, so that two equal documents are equal bytes.
    static func canonical(_ data: Data) throws -> Data {
        try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: data), options: [.sortedKeys])
    }

    @Test(arguments: commands)
    func aCommandReadsBackAsItselfAndAsJSONEncodersDocument(_ command: DispatchCommand) throws {
        for engineTime in Self.engineTimes {
            let key = engineTime == .zero ? "p1 POST /v1/rides \"6F1C\u{e9}\"" : nil
            let logged = LoggedCommand(command: command, engineTime: engineTime, wallTime: Self.at, idempotencyKey: key)
            let written = try logged.json()
            let encoded = try DispatchLogCoding.makeEncoder().encode(logged)
            #expect(try Self.decoded(written) == logged)
            #expect(try Self.canonical(written) == Self.canonical(encoded), "\(String(decoding: written, as: UTF8.self))")
        }
    }

    /// Wall times whole, fractional and far off are written as `JSONEncoder` writes them.
    @Test(arguments: [0, 1_790_000_000, 1_790_000_000.1234, -86_400.5, 1e14])
    func wallTimesAreTheEncodersNumbers(_ seconds: Double) throws {
        let logged = LoggedCommand(command: .tick, engineTime: .zero, wallTime: Date(timeIntervalSince1970: seconds))
        let written = try logged.json()
        #expect(try Self.decoded(written) == logged)
        #expect(try Self.canonical(written) == Self.canonical(try DispatchLogCoding.makeEncoder().encode(logged)))
    }

    /// A position JSON cannot hold is refused, not written.
    @Test func aNonFiniteCoordinateIsRefused() {
        let logged = LoggedCommand(
            command: .request("p1", pickup: Coordinate(longitude: .nan, latitude: 0), zone: nil, destination: nil),
            engineTime: .zero, wallTime: Self.at)
        #expect(throws: EncodingError.self) { try logged.json() }
    }

    /// A log written by `JSONEncoder` before, with entries written by hand
    /// after it, rebuilds the state of both, a meeting point's walk too.
    @Test func aLogOfOldAndNewEntriesReplays() async throws {
        let clock = ManualClock(now: Self.at)
        let log = InMemoryDispatchLog()
        let old: [DispatchCommand] = [.fleet(.appeared("A", zone: "230", at: Self.at)), .login("A")]
        try log.write(old.enumerated().map { index, command in
            .entry(DispatchLogEntry(
                sequence: Int64(index + 1),
                payload: try DispatchLogCoding.makeEncoder().encode(
                    LoggedCommand(command: command, engineTime: .seconds(index), wallTime: Self.at))))
        })
        let dispatcher = try await Dispatcher(log: log, clock: clock)
        try await dispatcher.execute(.setAvailable("A"))
        let walk = PickupWalk(from: Self.destination, seconds: 97.5, metres: 131, routed: false)
        try await dispatcher.execute(.request("p1", pickup: Self.pickup, zone: "230", destination: nil, walk: walk))
        let before = await dispatcher.snapshot
        dispatcher.close()

        let reopened = try await Dispatcher(log: log, clock: ManualClock(now: clock.now))
        #expect(await reopened.snapshot == before)
        #expect(await reopened.snapshot.state(of: "A") == .offered(RideRequestID(1)))
        #expect(await reopened.ride(RideRequestID(1))?.request.walk == walk)
        #expect(await reopened.logSequence == 4)
        reopened.close()
    }
}
