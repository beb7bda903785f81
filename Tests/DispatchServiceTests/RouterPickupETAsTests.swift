import DispatchService
import FixRecords
import Foundation
import GeoKit
import Routing
import Synchronization
import Testing

/// Positions a test moves.
final class MovablePositions: TaxiPositions {
    let positions = Mutex<[TaxiID: Coordinate]>([:])

    func position(of taxi: TaxiID) -> Coordinate? { positions.withLock { $0[taxi] } }
}

/// The router's ETAs on the fleet's positions, each position snapped once.
@Suite struct RouterPickupETAsTests {
    static let grandCentral = Coordinate(longitude: -73.9772, latitude: 40.7527)
    static let timesSquare = Coordinate(longitude: -73.9855, latitude: 40.7580)
    static let unionSquare = Coordinate(longitude: -73.9900, latitude: 40.7370)

    static func router() throws -> Router {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let extract = try OSMExtract(contentsOf: root.appendingPathComponent("Maps/manhattan-midtown.osm.pbf").path)
        return Router(graph: GraphBuilder.build(extract, profile: CarProfile()).graph, timeZone: TimeZone(identifier: "America/New_York")!)
    }

    @Test func etasAreTheRoutersAndFollowATaxiThatMoved() throws {
        let router = try Self.router()
        let positions = MovablePositions()
        positions.positions.withLock { $0 = ["A": Self.timesSquare, "B": Self.unionSquare] }
        let etas = RouterPickupETAs(router: router, fleet: positions)
        let depart = Date(timeIntervalSince1970: 1_795_438_800)
        let expected = try router.table(from: [Self.timesSquare, Self.unionSquare], to: Self.grandCentral, depart: depart)
        let first = etas.etas(from: ["A", "B", "C"], to: Self.grandCentral, depart: depart)
        #expect(first.keys.sorted() == ["A", "B"], "C has no position")
        #expect(first["A"] == expected[0].map { .milliseconds(Int64(($0.durationSeconds * 1000).rounded())) })
        #expect(first["B"] == expected[1].map { .milliseconds(Int64(($0.durationSeconds * 1000).rounded())) })
        #expect(etas.etas(from: ["A", "B"], to: Self.grandCentral, depart: depart) == first, "the same answer from the snapped places")
        positions.positions.withLock { $0["A"] = Self.unionSquare }
        #expect(etas.etas(from: ["A"], to: Self.grandCentral, depart: depart)["A"] == first["B"], "A was snapped again where it moved")
    }
}
