import FixRecords
import Ingest

/// What the API asks of the taxi registry (the devices file, reloaded on
/// SIGHUP): whether a taxi has a device (a driver's account is bound to
/// one), how many passengers it carries (told to the dispatcher at the
/// driver's login), and the most any taxi carries (a larger party is
/// refused at once rather than left waiting).
public struct TaxiRegistryLookup: Sendable {
    /// True when a device of the registry reports for the taxi.
    public let hasDevice: @Sendable (TaxiID) -> Bool
    /// The passengers the taxi carries.
    public let seats: @Sendable (TaxiID) -> Int
    /// The most passengers any taxi carries; nil when the registry is empty.
    public let largestSeats: @Sendable () -> Int?

    /// A lookup of these answers (a test's fixed ones).
    public init(
        hasDevice: @escaping @Sendable (TaxiID) -> Bool, seats: @escaping @Sendable (TaxiID) -> Int,
        largestSeats: @escaping @Sendable () -> Int?
    ) {
        self.hasDevice = hasDevice
        self.seats = seats
        self.largestSeats = largestSeats
    }

    /// The registry `pipeline` holds, as it stands at each question.
    public init(pipeline: IngestPipeline) {
        self.init(
            hasDevice: { pipeline.hasDevice(for: $0) }, seats: { pipeline.seats(of: $0) }, largestSeats: { pipeline.largestSeats })
    }
}
