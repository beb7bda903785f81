import DispatchCore
import FixRecords
import Foundation
import GeoKit

/// A taxi that may take a shared rider (SPEC D10): where it is, its seats,
/// and the stops it still has to make, each at its own place, with the
/// driving time of each leg as planned. Place 0 is the taxi's position;
/// stop `k` is at place `k + 1`, so the legs are those between consecutive
/// places and need no table again.
public struct SharingCandidate: Sendable {
    /// The taxi.
    public let taxi: TaxiID
    /// The passengers it carries.
    public let capacity: Int
    /// Its position, then each stop's place, in the itinerary's order.
    public let places: [Coordinate]
    /// The stops still to make; stop `k`'s place is `k + 1`.
    public let stops: [SharedStop]
    /// The driving time to each stop from the place before it (the taxi's
    /// position for the first).
    public let legs: [Duration]
    /// The riders of those stops, by ride.
    public let riders: [RideRequestID: SharedRider]
    /// How many of the first stops keep their place (``ItineraryInsertion/Taxi/committed``).
    public let committedStops: Int

    /// `taxi` at `position`, carrying `capacity`, with `itinerary` (each
    /// stop's rider, whether it is the pickup, where, and the leg's time
    /// from the place before) for `riders`, keeping the first
    /// `committedStops` first.
    public init(
        taxi: TaxiID, position: Coordinate, capacity: Int,
        itinerary: [(ride: RideRequestID, kind: SharedStop.Kind, at: Coordinate, leg: Duration)], riders: [RideRequestID: SharedRider],
        committedStops: Int = 0
    ) {
        self.taxi = taxi
        self.capacity = capacity
        places = [position] + itinerary.map(\.at)
        stops = itinerary.enumerated().map { index, stop in SharedStop(ride: stop.ride, kind: stop.kind, place: index + 1) }
        legs = itinerary.map(\.leg)
        self.riders = riders
        self.committedStops = committedStops
    }
}
