/// A taxi's place in a zone queue: when it became available, and a sequence
/// number that orders taxis which became available at the same instant in
/// the order the engine saw them (SPEC D2: longest available first).
///
/// The place belongs to the taxi, not to the queue: a taxi that moves to
/// another zone, or comes back from staleness within the grace, takes the
/// same place in the queue it joins.
public struct QueuePlace: Hashable, Comparable, Sendable, Codable {
    /// When the taxi became available, on the service clock's monotonic time.
    public let availableSince: Duration
    /// Breaks ties between taxis available since the same instant.
    public let sequence: Int

    /// A place for a taxi available since `availableSince`, the `sequence`-th given.
    public init(availableSince: Duration, sequence: Int) {
        self.availableSince = availableSince
        self.sequence = sequence
    }

    public static func < (lhs: QueuePlace, rhs: QueuePlace) -> Bool {
        (lhs.availableSince, lhs.sequence) < (rhs.availableSince, rhs.sequence)
    }
}
