import DispatchSimulation
import Foundation
import GeoKit
import Zones

/// Measured trips to draw demand from: pickups and destinations where real
/// passengers asked and went (NYC TLC columns `pickup_longitude`,
/// `pickup_latitude`, `dropoff_longitude`, `dropoff_latitude`), so that
/// requests fall where the city's demand is dense. Only trips with both
/// ends in a zone and within the road graph's bounds are kept.
struct DemandPoints: Sendable {
    let trips: [(pickup: Coordinate, destination: Coordinate)]

    /// The usable trips of the CSV `text`.
    /// - Throws: ``SimulatorError`` naming a missing column, or when no trip is usable.
    init(csv text: String, zones: ZoneIndex, bounds: BoundingBox) throws {
        var lines = text.split(whereSeparator: \.isNewline).makeIterator()
        let header = (lines.next() ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let names = ["pickup_longitude", "pickup_latitude", "dropoff_longitude", "dropoff_latitude"]
        let columns = try names.map { name in
            guard let column = header.firstIndex(of: name) else { throw SimulatorError("the demand file has no column \(name)") }
            return column
        }
        var trips: [(pickup: Coordinate, destination: Coordinate)] = []
        while let line = lines.next() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            let values = columns.compactMap { $0 < cells.count ? Double(cells[$0]) : nil }
            guard values.count == 4 else { continue }
            let pickup = Coordinate(longitude: values[0], latitude: values[1])
            let destination = Coordinate(longitude: values[2], latitude: values[3])
            guard bounds.contains(pickup), bounds.contains(destination),
                  zones.zone(at: pickup) != nil, zones.zone(at: destination) != nil else { continue }
            trips.append((pickup, destination))
        }
        guard !trips.isEmpty else { throw SimulatorError("no trip of the demand file has both ends in a zone and on the road graph") }
        self.trips = trips
    }

    /// A trip drawn uniformly with `random`.
    func random(using random: inout SplitMix64) -> (pickup: Coordinate, destination: Coordinate) {
        trips[Int(random.next() % UInt64(trips.count))]
    }
}
