/// The durations the dispatch rules depend on (SPEC D2–D4, D6), in one
/// value so that the service reads them from its settings and a test can
/// shorten or lengthen any of them.
///
/// Every duration is measured on the service clock's monotonic time
/// (`ServiceClock.uptime`), which does not jump when the wall clock is set,
/// except the reservation leads, which count to a pickup's wall-clock time.
public struct DispatchRules: Equatable, Sendable {
    /// How long a driver has to answer an offer before it goes to the next taxi (D3).
    public var offerTimeout: Duration
    /// How long a queued passenger has to confirm before the request is cancelled (D4).
    public var confirmationTimeout: Duration
    /// How long a taxi must stay in a new zone before it changes queue (D2),
    /// so that a taxi parked on a border does not flip between queues with
    /// GPS jitter. Zero applies every zone change at once.
    public var zoneDwell: Duration
    /// How long a stale taxi keeps its place in the queue: back within this
    /// time, it rejoins where it was; later, at the back (D2).
    public var staleGrace: Duration
    /// How long a driver waits at the pickup before reporting a missing client (D6).
    public var missingClientWait: Duration
    /// How far ahead a reservation's pickup must be at least (D5: 2 h).
    public var reservationMinimumLead: Duration = .seconds(2 * 3600)
    /// How far ahead a reservation's pickup may be at most (D5: 48 h).
    public var reservationMaximumLead: Duration = .seconds(48 * 3600)
    /// Until how long before its pickup a reservation may be cancelled (D5: 1 h).
    public var reservationCancellationLead: Duration = .seconds(3600)
    /// How long before its pickup a reservation gets its taxi (D5: 10 min).
    public var allocationLead: Duration = .seconds(600)
    /// An ETA on the way to the pickup is told again when it moved by more than this (D6: 30 s) ...
    public var etaChangeThreshold: Duration = .seconds(30)
    /// ... or when it was last told this long ago (D6: 90 s).
    public var etaRefreshInterval: Duration = .seconds(90)
    /// How many open reservations one passenger may hold: each takes a taxi
    /// out of its zone's queue for a while, so an account could otherwise
    /// empty a zone. Checked when a booking is made, not when the log is
    /// replayed, so that what was once accepted stays accepted.
    public var maximumOpenReservations = 5
    /// The bounds every rider of a shared ride keeps (D10).
    public var sharing = SharingRules()

    /// Rules with the defaults of the specification: 15 s to answer an
    /// offer, 30 s to confirm a queued request, a 30 s dwell, a 10 min stale
    /// grace and a 5 min wait for the client.
    public init(
        offerTimeout: Duration = .seconds(15),
        confirmationTimeout: Duration = .seconds(30),
        zoneDwell: Duration = .seconds(30),
        staleGrace: Duration = .seconds(600),
        missingClientWait: Duration = .seconds(300)
    ) {
        self.offerTimeout = offerTimeout
        self.confirmationTimeout = confirmationTimeout
        self.zoneDwell = zoneDwell
        self.staleGrace = staleGrace
        self.missingClientWait = missingClientWait
    }
}
