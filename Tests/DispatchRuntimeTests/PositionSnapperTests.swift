import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import Routing
import Synchronization
import Testing

/// Taxis are snapped to the roads when their fix arrives, by the snapper's
/// step (which the service runs a few times a second, and each query once
/// for the taxis that moved since), not at query time.
@Suite(.timeLimit(.minutes(20))) struct PositionSnapperTests {
    static let router = try! RouterPickupETAsTests.router()
    static let start = Date(timeIntervalSince1970: 1_795_438_800)
    /// In the Hudson, far from every road.
    static let offTheRoads = Coordinate(longitude: -74.03, latitude: 40.76)

    static func fix(_ taxi: TaxiID, at coordinate: Coordinate, second: Double) -> TaxiPosition {
        TaxiPosition(taxiId: taxi, coordinate: coordinate, time: start.addingTimeInterval(second), speedKmh: 20,
                     heading: 0, zoneId: nil)
    }

    @Test func aTaxiThatMovedIsSnappedByTheStepWithoutAQuery() throws {
        let fleet = FleetIndex()
        let snapped = SnappedPositions()
        let snapper = PositionSnapper(router: Self.router, fleet: fleet, snapped: snapped)
        fleet.update(Self.fix("A", at: RouterPickupETAsTests.timesSquare, second: 0), heardAt: Self.start)
        #expect(snapped.entry(of: "A") == nil, "ingest does not snap")
        #expect(snapper.step() == 1)
        let entry = try #require(snapped.entry(of: "A"))
        #expect(entry.coordinate == RouterPickupETAsTests.timesSquare)
        #expect(entry.isOnRoads)
        fleet.update(Self.fix("A", at: RouterPickupETAsTests.unionSquare, second: 5), heardAt: Self.start.addingTimeInterval(5))
        #expect(snapper.step() == 1)
        let moved = try #require(snapped.entry(of: "A"))
        #expect(moved.coordinate == RouterPickupETAsTests.unionSquare && moved.isOnRoads)
    }

    @Test func aTaxiThatDidNotMoveIsNotSnappedAgain() {
        let fleet = FleetIndex()
        let snapper = PositionSnapper(router: Self.router, fleet: fleet, snapped: SnappedPositions())
        fleet.update(Self.fix("A", at: RouterPickupETAsTests.timesSquare, second: 0), heardAt: Self.start)
        fleet.update(Self.fix("B", at: RouterPickupETAsTests.unionSquare, second: 0), heardAt: Self.start)
        #expect(snapper.step() == 2)
        #expect(snapper.step() == 0, "nobody moved")
        fleet.update(Self.fix("B", at: RouterPickupETAsTests.unionSquare, second: -5), heardAt: Self.start)
        #expect(snapper.step() == 0, "an older fix moves nobody")
        fleet.update(Self.fix("B", at: RouterPickupETAsTests.grandCentral, second: 10), heardAt: Self.start)
        #expect(snapper.step() == 1, "only B moved")
    }

    @Test func aPositionOffTheRoadsGetsNoPlace() throws {
        let fleet = FleetIndex()
        let snapped = SnappedPositions()
        let snapper = PositionSnapper(router: Self.router, fleet: fleet, snapped: snapped)
        fleet.update(Self.fix("A", at: Self.offTheRoads, second: 0), heardAt: Self.start)
        #expect(snapper.step() == 1)
        let entry = try #require(snapped.entry(of: "A"))
        #expect(entry.coordinate == Self.offTheRoads)
        #expect(!entry.isOnRoads)
    }

    /// The ETAs read the places the step snapped, and a query's own step
    /// snaps a position that arrived after it: both equal the router's table.
    @Test func etasFromSnappedPlacesEqualTheRoutersTable() throws {
        let fleet = FleetIndex()
        let snapped = SnappedPositions()
        let snapper = PositionSnapper(router: Self.router, fleet: fleet, snapped: snapped)
        let etas = RouterPickupETAs(snapper: snapper)
        fleet.update(Self.fix("A", at: RouterPickupETAsTests.timesSquare, second: 0), heardAt: Self.start)
        snapper.step()
        fleet.update(Self.fix("B", at: RouterPickupETAsTests.unionSquare, second: 0), heardAt: Self.start)
        let expected = try Self.router.table(
            from: [RouterPickupETAsTests.timesSquare, RouterPickupETAsTests.unionSquare], to: RouterPickupETAsTests.grandCentral,
            depart: Self.start)
        let found = etas.etas(from: ["A", "B"], to: RouterPickupETAsTests.grandCentral, depart: Self.start)
        #expect(found[0] == expected[0].map { .milliseconds(Int64(($0.durationSeconds * 1000).rounded())) })
        #expect(found[1] == expected[1].map { .milliseconds(Int64(($0.durationSeconds * 1000).rounded())) })
        #expect(snapped.entry(of: "B")?.coordinate == RouterPickupETAsTests.unionSquare, "the query published what it snapped")
        #expect(snapper.step() == 0, "B's position is snapped already")
    }

    /// A query that comes while a background step holds the moves it took,
    /// not yet published, waits for that step: it answers from the taxi's
    /// new position, not from its old place (nor from none).
    @Test func aQueryWaitsForTheStepThatTookTheMoves() async throws {
        let fleet = HeldMoves()
        let snapper = PositionSnapper(router: Self.router, fleet: fleet, snapped: SnappedPositions())
        let etas = RouterPickupETAs(snapper: snapper)
        fleet.move("A", to: RouterPickupETAsTests.timesSquare)
        snapper.step()
        fleet.move("A", to: RouterPickupETAsTests.unionSquare)
        fleet.holdNextTake()
        let background = Thread { snapper.step() }
        background.start()
        #expect(fleet.waitUntilTaken(), "the background step took the moves")
        let query = Task.detached { etas.eta(from: "A", to: RouterPickupETAsTests.grandCentral, depart: Self.start) }
        try await Task.sleep(for: .milliseconds(200))
        fleet.release()
        let expected = try Self.router.table(from: [RouterPickupETAsTests.unionSquare], to: RouterPickupETAsTests.grandCentral,
                                             depart: Self.start)[0]
        #expect(await query.value == expected.map { .milliseconds(Int64(($0.durationSeconds * 1000).rounded())) })
    }
}

/// Moves a test makes, whose next hand-over can be held between taking the
/// moves and returning them, as a background step is between taking and publishing.
final class HeldMoves: MovingTaxis {
    private struct State {
        var moved: [(taxi: TaxiID, coordinate: Coordinate)] = []
        var holdNext = false
    }
    private let state = Mutex(State())
    private let taken = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    func move(_ taxi: TaxiID, to coordinate: Coordinate) {
        state.withLock { $0.moved.append((taxi, coordinate)) }
    }

    /// The next ``takeMoved()`` takes the moves, then waits for ``release()``.
    func holdNextTake() {
        state.withLock { $0.holdNext = true }
    }

    func takeMoved() -> [(taxi: TaxiID, coordinate: Coordinate)] {
        let (moved, held) = state.withLock { state in
            defer { state.moved.removeAll() }
            let held = state.holdNext
            state.holdNext = false
            return (state.moved, held)
        }
        if held {
            taken.signal()
            released.wait()
        }
        return moved
    }

    /// Returns once the held take has taken the moves; false when it did not within a minute.
    func waitUntilTaken() -> Bool {
        taken.wait(timeout: .now() + 60) == .success
    }

    func release() {
        released.signal()
    }
}
