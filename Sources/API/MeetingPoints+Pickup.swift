import DispatchCore
import Foundation
import GeoKit
import Routing

extension MeetingPoints {
    /// Where a taxi picks up a passenger who asked at `asked`, leaving at
    /// `depart`: `asked` itself, or the meeting point with the walk to it.
    /// - Throws: ``Problem`` 422 when no road a taxi can stop on lies near enough, saying how far the roads are.
    func pickup(for asked: Coordinate, depart: Date) throws -> (pickup: Coordinate, walk: PickupWalk?) {
        let meeting: MeetingPoint?
        do {
            meeting = try meetingPoint(for: asked, depart: depart)
        } catch let error as SnapError {
            throw Problem.unprocessable("no taxi can come to the pickup \(asked): \(error)")
        }
        guard let meeting else { return (asked, nil) }
        return (meeting.stop, PickupWalk(from: asked, to: meeting))
    }
}
