import FixRecords
import Zones

/// The names the dispatch service gives its statistics in the store
/// (``Storage/HourlyCount``): whom a figure counts and what.
public enum StatisticsSubject {
    /// The subject of a zone's figures: `zone/Z12`.
    public static func zone(_ zone: ZoneID) -> String { zonePrefix + zone.text }
    /// The subject of a driver's figures: `driver/ada`.
    public static func driver(_ username: String) -> String { driverPrefix + username }
    /// What every zone's subject starts with.
    public static let zonePrefix = "zone/"
    /// What every driver's subject starts with.
    public static let driverPrefix = "driver/"
    /// The whole city's subject: how many samples of the queues each hour took.
    public static let city = "city"
}

/// What a figure counts.
public enum StatisticsMeasure: String, CaseIterable, Sendable {
    /// Zone: requests opened with their pickup there.
    case requests
    /// Zone: booked rides given a taxi there.
    case bookings
    /// Zone and driver: offers made.
    case offers
    /// Zone and driver: offers accepted.
    case accepted
    /// Zone and driver: offers refused by the driver.
    case refused
    /// Zone and driver: offers left to time out.
    case timedOut = "timed_out"
    /// Zone: requests put in the passenger queue, no taxi being free.
    case queued
    /// Zone and driver: rides completed.
    case served
    /// Zone and driver: taxis that waited at the pickup in vain.
    case clientMissing = "client_missing"
    /// Zone: requests whose passenger asked to share the taxi.
    case sharedRequests = "shared_requests"
    /// Zone and driver: shared requests that joined a taxi already on a shared ride.
    case sharedJoined = "shared_joined"
    /// Zone: requests cancelled by the passenger (or a dispatcher for them).
    case cancelledByPassenger = "cancelled/by_passenger"
    /// Zone: requests dropped for want of the passenger's confirmation.
    case cancelledNotConfirmed = "cancelled/not_confirmed"
    /// Zone: requests cancelled by a new zone set that left their pickup out.
    case cancelledOutsideZones = "cancelled/outside_zones"
    /// Zone: free taxis in its queue, added up over the hour's samples.
    case taxisAvailable = "taxis_available"
    /// Zone: passengers in its queue, added up over the hour's samples.
    case passengersQueued = "passengers_queued"
    /// City: the samples of the queues taken in the hour.
    case samples
    /// Driver: seconds available for rides.
    case availableSeconds = "available_s"
}

/// A measure with one count per taxi: a driver's seconds on duty in each
/// taxi (`on_duty_s/T12`), for the kilometres the archive says it drove.
public enum OnDutyMeasure {
    static let prefix = "on_duty_s/"

    /// The measure of the seconds on duty in `taxi`.
    public static func name(_ taxi: TaxiID) -> String { prefix + taxi.text }

    /// The taxi `measure` counts the seconds on duty in, nil for another measure.
    public static func taxi(of measure: String) -> TaxiID? {
        measure.hasPrefix(prefix) ? TaxiID(String(measure.dropFirst(prefix.count))) : nil
    }
}
