/// At most one log line per ``interval`` for an event that can come in a
/// flood (a connection refused beyond the limit), so that a client opening
/// connections in a loop cannot fill the disk with the same warning.
///
/// Each line says how many events it stands for: the events held back since
/// the previous line come with the next one. The metrics count every event
/// as it happens; the log only tells an operator that it is happening.
struct WarningThrottle {
    /// The shortest time between two lines.
    let interval: Duration
    private var lastLine: ContinuousClock.Instant?
    private var heldBack = 0

    init(interval: Duration) {
        self.interval = interval
    }

    /// Counts one event at `now`; returns how many events a line written now
    /// stands for (this one included), or nil when the line must wait.
    mutating func record(at now: ContinuousClock.Instant) -> Int? {
        heldBack += 1
        if let lastLine, now - lastLine < interval { return nil }
        lastLine = now
        defer { heldBack = 0 }
        return heldBack
    }
}
