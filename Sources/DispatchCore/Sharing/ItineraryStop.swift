import GeoKit

/// One stop of a shared taxi's itinerary as the engine keeps it (SPEC D10):
/// a rider's pickup or drop-off, in the order the driver makes them. Where
/// the stop is follows from the rider's request (its pickup or destination).
public struct ItineraryStop: Hashable, Sendable, Codable {
    /// Whose stop it is.
    public let ride: RideRequestID
    /// Getting in or out.
    public let kind: SharedStop.Kind

    /// `ride`'s `kind` stop.
    public init(ride: RideRequestID, kind: SharedStop.Kind) {
        self.ride = ride
        self.kind = kind
    }
}

extension RideRequest {
    /// Where the request's stop of `kind` is: its pickup, or its
    /// destination (nil for a request without one).
    public func place(of kind: SharedStop.Kind) -> Coordinate? {
        kind == .pickup ? pickup : destination
    }
}

extension DispatchSnapshot {
    /// Where `stop` is; nil once its request is closed.
    public func place(of stop: ItineraryStop) -> Coordinate? {
        requests[stop.ride]?.place(of: stop.kind)
    }
}
