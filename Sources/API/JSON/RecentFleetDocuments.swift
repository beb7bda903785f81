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
/// second send the same bytes (one shared buffer, not a copy). A driver's
/// state or a zone change shows at most ``maxAge`` late there; the push
/// sockets tell them at once.
final class RecentFleetDocuments: Sendable {
    /// Which document.
    enum Key: Hashable, Sendable {
        /// `GET /v1/fleet`.
        case fleet
        /// `GET /v1/zones/{zoneId}/taxis`.
        case zoneTaxis(ZoneID)
    }

    /// How long a document is answered again after it was written.
    static let maxAge: TimeInterval = 1
    /// Documents kept beyond which the expired ones are let go (zone ids of
    /// an older zone set are not asked for again).
    private static let sweepThreshold = 64

    private let clock: any ServiceClock
    private let documents = Mutex<[Key: (written: Date, json: ByteBuffer)]>([:])

    init(clock: any ServiceClock) {
        self.clock = clock
    }

    /// The document of `key` written less than ``maxAge`` ago, else the one
    /// `write` makes now (and keeps).
    func document(_ key: Key, write: () async throws -> [UInt8]) async rethrows -> ByteBuffer {
        let now = clock.now
        if let kept = documents.withLock({ $0[key] }), now.timeIntervalSince(kept.written) < Self.maxAge, kept.written <= now {
            return kept.json
        }
        let json = ByteBuffer(bytes: try await write())
        documents.withLock { documents in
            if documents.count >= Self.sweepThreshold {
                documents = documents.filter { now.timeIntervalSince($0.value.written) < Self.maxAge }
            }
            documents[key] = (now, json)
        }
        return json
    }
}
