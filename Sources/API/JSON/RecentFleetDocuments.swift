import DispatchRuntime
import Fleet
import Foundation
import NIOCore
import ServiceClock
import Synchronization
import Zones

/// The fleet's documents (`GET /v1/fleet` and `GET /v1/zones/{zoneId}/taxis`)
/// as last written, answered again for up to ``maxAge``: every dispatcher's
/// screen polls them, and a zone of 1,000 taxis costs about a millisecond
/// of a core to read and write, while a taxi reports every 30 s. So the
/// first read of a second writes the document and the others of that
/// second send the same bytes (one shared buffer, not a copy).
///
/// Only positions may show up to ``maxAge`` late: a document written
/// before a change that the push sockets tell (a driver's state, a taxi
/// in another queue, a zone set put in force) is not answered again, so
/// that what a dispatcher reads never contradicts what they were told.
final class RecentFleetDocuments: Sendable {
    /// Which document.
    enum Key: Hashable, Sendable {
        /// `GET /v1/fleet`.
        case fleet
        /// `GET /v1/zones/{zoneId}/taxis`.
        case zoneTaxis(ZoneID)
    }

    /// Where the state the documents show stands: the dispatcher's
    /// decisions and the fleet's rezonings so far. A document written
    /// under another mark is out of date.
    struct StateMark: Equatable, Sendable {
        var dispatchDecisions: Int
        var fleetRezonings: Int
    }

    /// How long a document is answered again after it was written.
    static let maxAge: TimeInterval = 1
    /// Documents kept beyond which the expired ones are let go (zone ids of
    /// an older zone set are not asked for again).
    private static let sweepThreshold = 64

    private let clock: any ServiceClock
    private let mark: @Sendable () -> StateMark
    private let documents = Mutex<[Key: (written: Date, mark: StateMark, json: ByteBuffer)]>([:])

    /// Documents timed by `clock`, each kept while `mark` reads as when it was written.
    init(clock: any ServiceClock, mark: @escaping @Sendable () -> StateMark) {
        self.clock = clock
        self.mark = mark
    }

    /// Documents of `fleet` and `dispatcher`, timed by `clock`.
    convenience init(clock: any ServiceClock, fleet: FleetIndex, dispatcher: Dispatcher) {
        self.init(clock: clock) {
            StateMark(dispatchDecisions: dispatcher.decisionCount, fleetRezonings: fleet.rezoneCount)
        }
    }

    /// The document of `key` written less than ``maxAge`` ago under the
    /// state mark of now, else the one `write` makes now (and keeps).
    func document(_ key: Key, write: () async throws -> [UInt8]) async rethrows -> ByteBuffer {
        let now = clock.now
        // Read before the state is, so that a change meanwhile leaves the new document out of date, never the reverse.
        let mark = mark()
        if let kept = documents.withLock({ $0[key] }), kept.mark == mark,
            now.timeIntervalSince(kept.written) < Self.maxAge, kept.written <= now
        {
            return kept.json
        }
        let json = ByteBuffer(bytes: try await write())
        documents.withLock { documents in
            if documents.count >= Self.sweepThreshold {
                documents = documents.filter { $0.value.mark == mark && now.timeIntervalSince($0.value.written) < Self.maxAge }
            }
            documents[key] = (now, mark, json)
        }
        return json
    }
}
