import CoreMetrics
import FixRecords
import Foundation

/// The ingest counters of SPEC I7, through swift-metrics (Prometheus in
/// `mytaxi serve`): frames and fixes received, accepted and rejected per
/// protocol and reason, connections, commit batch sizes and ACK latency,
/// and the archive's background moves.
///
/// Every labelled counter is created once up front, so counting on the hot
/// path is an array index and an atomic add.
public final class IngestMetrics: Sendable {
    private let framesReceived: [Counter]
    private let framesRejected: [[Counter]]
    private let fixesReceived: [Counter]
    private let fixesAccepted: [Counter]
    private let fixesRejected: [[Counter]]
    private let fixesOutOfOrder: [Counter]
    private let connectionsOpened: [Counter]
    private let connectionsActive: [Meter]
    private let ackLatency: [CoreMetrics.Timer]
    private let commitFixes: Recorder
    private let commitDuration: CoreMetrics.Timer
    private let movedFixes: Recorder
    private let moveDuration: CoreMetrics.Timer
    private let fixesArchived: Counter
    private let archiveFailures: Counter
    private let archiveQueue: Gauge
    private let readsPaused: [Counter]
    private let datagramsDropped: [[Counter]]
    private let moveFailures: Counter
    private let connectionsRefused: [[Counter]]
    private let connectionsTimedOut: [[Counter]]
    private let acceptFailures: [[Counter]]

    public init(factory: any MetricsFactory) {
        let protocols = WireProtocol.allCases
        func perProtocol<M>(_ make: (String) -> M) -> [M] { protocols.map { make($0.rawValue) } }
        framesReceived = perProtocol {
            Counter(label: "mytaxi_frames_received_total", dimensions: [("protocol", $0)], factory: factory)
        }
        framesRejected = perProtocol { name in
            FrameError.Reason.allCases.map {
                Counter(label: "mytaxi_frames_rejected_total", dimensions: [("protocol", name), ("reason", $0.rawValue)],
                        factory: factory)
            }
        }
        fixesReceived = perProtocol {
            Counter(label: "mytaxi_fixes_received_total", dimensions: [("protocol", $0)], factory: factory)
        }
        fixesAccepted = perProtocol {
            Counter(label: "mytaxi_fixes_accepted_total", dimensions: [("protocol", $0)], factory: factory)
        }
        fixesRejected = perProtocol { name in
            RejectReason.allCases.map {
                Counter(label: "mytaxi_fixes_rejected_total", dimensions: [("protocol", name), ("reason", $0.rawValue)],
                        factory: factory)
            }
        }
        fixesOutOfOrder = perProtocol {
            Counter(label: "mytaxi_fixes_out_of_order_total", dimensions: [("protocol", $0)], factory: factory)
        }
        connectionsOpened = perProtocol {
            Counter(label: "mytaxi_connections_opened_total", dimensions: [("protocol", $0)], factory: factory)
        }
        connectionsActive = perProtocol {
            Meter(label: "mytaxi_connections_active", dimensions: [("protocol", $0)], factory: factory)
        }
        ackLatency = perProtocol {
            CoreMetrics.Timer(label: "mytaxi_ack_latency_seconds", dimensions: [("protocol", $0)], factory: factory)
        }
        commitFixes = Recorder(label: "mytaxi_archive_commit_fixes", dimensions: [], aggregate: true, factory: factory)
        commitDuration = CoreMetrics.Timer(label: "mytaxi_archive_commit_seconds", dimensions: [], factory: factory)
        movedFixes = Recorder(label: "mytaxi_archive_move_fixes", dimensions: [], aggregate: true, factory: factory)
        moveDuration = CoreMetrics.Timer(label: "mytaxi_archive_move_seconds", dimensions: [], factory: factory)
        fixesArchived = Counter(label: "mytaxi_fixes_archived_total", dimensions: [], factory: factory)
        archiveFailures = Counter(label: "mytaxi_archive_failures_total", dimensions: [], factory: factory)
        archiveQueue = Gauge(label: "mytaxi_archive_queue_fixes", dimensions: [], factory: factory)
        readsPaused = perProtocol {
            Counter(label: "mytaxi_ingest_reads_paused_total", dimensions: [("protocol", $0)], factory: factory)
        }
        datagramsDropped = perProtocol { name in
            DatagramDropReason.allCases.map {
                Counter(label: "mytaxi_datagrams_dropped_total", dimensions: [("protocol", name), ("reason", $0.rawValue)],
                        factory: factory)
            }
        }
        moveFailures = Counter(label: "mytaxi_archive_move_failures_total", dimensions: [], factory: factory)
        connectionsRefused = perProtocol { name in
            ConnectionRefusalReason.allCases.map {
                Counter(label: "mytaxi_connections_refused_total", dimensions: [("protocol", name), ("reason", $0.rawValue)],
                        factory: factory)
            }
        }
        connectionsTimedOut = perProtocol { name in
            ["identification", "idle"].map {
                Counter(label: "mytaxi_connections_timed_out_total", dimensions: [("protocol", name), ("phase", $0)],
                        factory: factory)
            }
        }
        acceptFailures = perProtocol { name in
            AcceptFailureReason.allCases.map {
                Counter(label: "mytaxi_accept_failures_total", dimensions: [("protocol", name), ("reason", $0.rawValue)],
                        factory: factory)
            }
        }
    }

    private static func index(_ wireProtocol: WireProtocol) -> Int {
        WireProtocol.allCases.firstIndex(of: wireProtocol) ?? 0
    }

    public func frameReceived(_ wireProtocol: WireProtocol) {
        framesReceived[Self.index(wireProtocol)].increment()
    }

    public func frameRejected(_ wireProtocol: WireProtocol, _ reason: FrameError.Reason) {
        let reasonIndex = FrameError.Reason.allCases.firstIndex(of: reason) ?? 0
        framesRejected[Self.index(wireProtocol)][reasonIndex].increment()
    }

    public func fixesReceived(_ wireProtocol: WireProtocol, count: Int) {
        fixesReceived[Self.index(wireProtocol)].increment(by: count)
    }

    public func fixesAccepted(_ wireProtocol: WireProtocol, count: Int) {
        fixesAccepted[Self.index(wireProtocol)].increment(by: count)
    }

    public func fixRejected(_ wireProtocol: WireProtocol, _ reason: RejectReason) {
        let reasonIndex = RejectReason.allCases.firstIndex(of: reason) ?? 0
        fixesRejected[Self.index(wireProtocol)][reasonIndex].increment()
    }

    public func fixOutOfOrder(_ wireProtocol: WireProtocol) {
        fixesOutOfOrder[Self.index(wireProtocol)].increment()
    }

    public func connectionOpened(_ wireProtocol: WireProtocol) {
        connectionsOpened[Self.index(wireProtocol)].increment()
        connectionsActive[Self.index(wireProtocol)].increment()
    }

    public func connectionClosed(_ wireProtocol: WireProtocol) {
        connectionsActive[Self.index(wireProtocol)].decrement()
    }

    /// Time from a frame's arrival to its ACK leaving (archive commit included).
    public func ackSent(_ wireProtocol: WireProtocol, latency: Duration) {
        ackLatency[Self.index(wireProtocol)].recordNanoseconds(Self.nanoseconds(latency))
    }

    /// One group commit: how many fixes and how long it took.
    public func committed(fixCount: Int, duration: Duration) {
        commitFixes.record(fixCount)
        commitDuration.recordNanoseconds(Self.nanoseconds(duration))
        fixesArchived.increment(by: fixCount)
    }

    /// A background move of journaled fixes into the archive's queryable
    /// store: how many and how long.
    public func moved(fixCount: Int, duration: Duration) {
        movedFixes.record(fixCount)
        moveDuration.recordNanoseconds(Self.nanoseconds(duration))
    }

    /// A commit that failed: its fixes were not acknowledged.
    public func archiveFailed() {
        archiveFailures.increment()
    }

    /// Fixes handed to the archive and not yet durable: the queue depth of SPEC I7.
    public func archiveQueue(fixes: Int) {
        archiveQueue.record(fixes)
    }

    /// A TCP connection stopped reading: the archive is behind, its own
    /// commits are queued, or the terminal does not read its ACKs.
    public func readPaused(_ wireProtocol: WireProtocol) {
        readsPaused[Self.index(wireProtocol)].increment()
    }

    /// A datagram dropped unread: the archive is behind (the terminal,
    /// which got no ACK, sends it again), or its source is not allowed.
    public func datagramDropped(_ wireProtocol: WireProtocol, _ reason: DatagramDropReason) {
        let reasonIndex = DatagramDropReason.allCases.firstIndex(of: reason) ?? 0
        datagramsDropped[Self.index(wireProtocol)][reasonIndex].increment()
    }

    /// A connection closed on accepting it: the ingest listeners hold their
    /// maximum, or its source is not allowed.
    public func connectionRefused(_ wireProtocol: WireProtocol, _ reason: ConnectionRefusalReason) {
        let reasonIndex = ConnectionRefusalReason.allCases.firstIndex(of: reason) ?? 0
        connectionsRefused[Self.index(wireProtocol)][reasonIndex].increment()
    }

    /// A connection closed because it did not identify itself in time, or
    /// (`identified`) fell silent for the idle timeout.
    public func connectionTimedOut(_ wireProtocol: WireProtocol, identified: Bool) {
        connectionsTimedOut[Self.index(wireProtocol)][identified ? 1 : 0].increment()
    }

    /// A TCP listener's `accept` failed (`EMFILE` when the open-file limit
    /// is reached): the connection waits in the listen queue, unserved.
    public func acceptFailed(_ wireProtocol: WireProtocol, _ reason: AcceptFailureReason) {
        let reasonIndex = AcceptFailureReason.allCases.firstIndex(of: reason) ?? 0
        acceptFailures[Self.index(wireProtocol)][reasonIndex].increment()
    }

    /// A background move of journaled fixes into the store failed; the
    /// fixes stay in the journal, durable, and the next move tries again.
    public func moveFailed() {
        moveFailures.increment()
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
