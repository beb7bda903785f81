import FixRecords
import ServiceLifecycle
import Storage

/// The group committer as a service: it runs from the start, and at
/// shutdown (after every listener stopped taking fixes) writes what is
/// queued and stops its thread, so that every fix acknowledged is stored.
struct ArchiveService: Service {
    let committer: GroupCommitter<AcceptedFix>

    func run() async throws {
        try? await gracefulShutdown()
        committer.shutdown()
    }
}
