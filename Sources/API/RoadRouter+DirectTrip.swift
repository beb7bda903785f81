import Foundation
import GeoKit
import Routing

extension RoadRouter {
    /// The drive from `pickup` to `destination` alone, leaving at `depart`:
    /// what a shared rider's added delay is bounded by (SPEC D10).
    /// - Throws: ``Problem`` 422 when no road leads from one to the other.
    func directTrip(from pickup: Coordinate, to destination: Coordinate, depart: Date) throws -> Duration {
        do {
            let route = try route(from: pickup, to: destination, depart: depart)
            return .milliseconds(Int64((route.durationSeconds * 1000).rounded()))
        } catch {
            throw Problem.unprocessable("no road leads from the pickup to the destination (\(error)); a shared ride needs one")
        }
    }
}
