/// Why a UDP listener dropped a datagram unread, as the label `reason` of
/// `mytaxi_datagrams_dropped_total`.
public enum DatagramDropReason: String, CaseIterable, Sendable {
    /// The archive is behind: the terminal, which got no ACK, sends it again.
    case archiveBehind = "archive_behind"
    /// Its source address is outside `--ingest-allow`.
    case notAllowed = "not_allowed"
}
