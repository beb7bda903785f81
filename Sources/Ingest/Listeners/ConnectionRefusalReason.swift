/// Why a TCP listener closed a connection as soon as it accepted it, as the
/// label `reason` of `mytaxi_connections_refused_total`. Nothing of such a
/// connection is read.
public enum ConnectionRefusalReason: String, CaseIterable, Sendable {
    /// The ingest listeners hold `--max-connections` connections already.
    case maxConnections = "max_connections"
    /// Its source address is outside `--ingest-allow`.
    case notAllowed = "not_allowed"
}
