import Testing

extension Tag {
    /// Starts child processes (`mytaxi serve`, the load generator, a
    /// simulated city) and blocks a thread on them for up to a minute, or
    /// stops the shared PostgreSQL cluster: `make test` runs these last,
    /// on their own, so that they neither starve nor disturb the others.
    @Tag public static var longRunningProcesses: Self

    /// Waits in real time for asynchronous work (push sockets, a login's
    /// timing, a service's passes) with deadlines that a starved cooperative
    /// pool would miss: `make test` runs these apart from the parallel run.
    @Tag public static var realTimeWaits: Self
}
