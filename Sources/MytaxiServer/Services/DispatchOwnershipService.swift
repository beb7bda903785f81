import DispatchCore
import DispatchRuntime
import Fleet
import Logging
import ServiceClock
import ServiceLifecycle
import Storage
import Synchronization
import Zones

/// Which node decides dispatch, on a service of several nodes sharing one
/// database (`serve --node-id`): every round, this node claims the dispatch
/// lease, which renews it while it holds it and takes it once its holder's
/// has run out. The node that holds it makes its dispatcher decide; every
/// other node's dispatcher follows the log and replays it each round.
///
/// A holder that cannot renew (the database unreachable) stops deciding on
/// its own clock before its lease can have run out, so that it never
/// answers as owner while another node may have taken over (its writes
/// would be refused anyway: the log is fenced by the lease). A graceful
/// stop writes what is queued and hands the lease back at once, so that
/// another node takes over within a round instead of a lease's length.
///
/// Restoring the engine from the log at a takeover may take longer than
/// the lease (a long log, a slow machine): it runs beside the rounds, which
/// go on renewing the lease meanwhile, or another node would claim the lease
/// while this one restored, and the lease would pass from node to node.
struct DispatchOwnershipService: Service {
    let ownership: any DispatchOwnership
    let dispatcher: Dispatcher
    let fleet: FleetIndex
    /// The zone set in force on this node, which the engine takes at a takeover.
    let zones: ActiveZones
    /// This node's name, where the others reach it, and how long a claimed
    /// lease runs (the holder renews it every round).
    let node: ClusterNode
    let clock: any ServiceClock
    let logger: Logger

    /// The pause between two rounds: a few per lease, so that a holder
    /// renews several times before its lease could run out, and a follower
    /// replays the log often enough for reads to be well within 2 s behind.
    static let round: Duration = .milliseconds(500)

    /// Stop deciding this long before the lease runs out on this node's
    /// clock when renewals fail: room for the clocks' rates and the
    /// statement's own time.
    static let safetyMargin: Duration = .seconds(1)

    func run() async throws {
        let takeOver = TakeOver()
        try? await cancelWhenGracefulShutdown {
            var heldUntil: Duration?
            while !Task.isCancelled {
                heldUntil = await claimOrFollow(heldUntil: heldUntil, takeOver: takeOver)
                try await clock.sleep(for: Self.round)
            }
        }
        await takeOver.finish()
        await handOver()
    }

    /// One round: claims the lease and decides, or follows the node that
    /// holds it and replays what it wrote. Returns until when, on this
    /// node's clock, the lease it holds is sure to be held.
    private func claimOrFollow(heldUntil: Duration?, takeOver: TakeOver) async -> Duration? {
        let asked = clock.uptime
        do {
            if let lease = try await ownership.claim(node: node.name, address: node.address, for: node.leaseDuration) {
                let took = clock.uptime - asked
                if took > node.leaseDuration / 3 {
                    logger.warning(
                        """
                        renewing the dispatch lease took \(Int(took / .milliseconds(1))) ms of its \(Int(node.leaseDuration / .milliseconds(1))) ms: \
                        the database is slow to answer; past the lease another node takes dispatch over
                        """)
                }
                // A new epoch even for this node when its lease ran out
                // unnoticed: another node may have decided meanwhile.
                if dispatcher.role != .deciding(lease) {
                    takeOver.begin { await decide(holding: lease) }
                }
                return asked + node.leaseDuration
            }
            let owner = try await ownership.owner()
            let role = dispatcher.role
            if role.decides {
                logger.warning("another node took dispatch over (\(owner.map(\.description) ?? "none now")); this node follows its log")
            } else if role != .following(owner: owner) {
                logger.info("dispatch is decided by \(owner.map(\.description) ?? "no node now"); this node follows its log")
            }
            await dispatcher.follow(owner: owner)
            try await dispatcher.catchUp()
            return nil
        } catch {
            if let heldUntil, clock.uptime < heldUntil - Self.safetyMargin { return heldUntil }
            if dispatcher.role.decides {
                logger.error("cannot renew the dispatch lease; this node stops deciding before it can run out: \(error)")
                await dispatcher.follow(owner: nil)
            } else {
                logger.debug("dispatch lease round failed: \(error)")
            }
            return nil
        }
    }

    /// Makes the dispatcher decide under `lease`, restoring the engine from the log.
    private func decide(holding lease: DispatchLease) async {
        do {
            try await dispatcher.decide(holding: lease)
        } catch {
            logger.error("could not take dispatch over (\(lease)); trying again next round: \(error)")
            return
        }
        logger.notice("this node decides dispatch now (\(lease)); restored the engine from the dispatch log")
        await takeOverTheFleet()
    }

    /// Tells the engine, just taken over, of this node's zone set and of
    /// where every taxi is now: the fleet's events while this node followed
    /// (a zone changed, a taxi fell silent in the moments its previous
    /// owner was dying) went to no engine, and the fleet index tells each once.
    private func takeOverTheFleet() async {
        _ = try? await dispatcher.replaceZones(with: zones.current)
        for entry in fleet.entries(now: clock.now) {
            let position = entry.position
            let event: FleetEvent =
                entry.stale
                ? .wentStale(position.taxiId, lastHeard: entry.lastHeard)
                : .appeared(position.taxiId, zone: position.zoneId, at: entry.lastHeard)
            try? await dispatcher.record(.fleet(event))
        }
    }

    /// At a stop: writes what is queued, stops deciding and hands the lease back.
    private func handOver() async {
        guard case .deciding(let lease?) = dispatcher.role else { return }
        await dispatcher.waitForWrites()
        await dispatcher.follow(owner: nil)
        do {
            try await ownership.release(lease)
            logger.notice("handed dispatch over (\(lease)): another node takes it within a round")
        } catch {
            logger.warning("could not hand dispatch over; another node takes it when the lease runs out: \(error)")
        }
    }
}

/// The takeover under way, at most one: the engine's restore, which runs
/// beside the lease's rounds.
private final class TakeOver: Sendable {
    private let running = Mutex<Task<Void, Never>?>(nil)

    /// Runs `work` unless a takeover is under way.
    func begin(_ work: @escaping @Sendable () async -> Void) {
        running.withLock { running in
            guard running == nil else { return }
            running = Task { [self] in
                await work()
                self.running.withLock { $0 = nil }
            }
        }
    }

    /// Returns once the takeover under way, if any, is over.
    func finish() async {
        await running.withLock { $0 }?.value
    }
}
