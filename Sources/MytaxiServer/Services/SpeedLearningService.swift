import Foundation
import ServiceClock
import ServiceLifecycle

/// Runs the fleet's speed learning (``FleetSpeedLearning``): puts what was
/// restored in force at once, then matches the waiting fixes every second,
/// puts the learned speeds in force every ``publishEvery`` seconds, saves
/// the weekly table every ``saveEvery`` and once more when the service stops.
struct SpeedLearningService: Service {
    let learning: FleetSpeedLearning
    let clock: any ServiceClock
    var publishEvery: TimeInterval = 30
    var saveEvery: TimeInterval = 600
    var matchEvery: Duration = .seconds(1)

    func run() async throws {
        learning.publish(now: clock.now)
        var lastPublish = clock.now, lastSave = clock.now
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            try? await clock.sleep(for: matchEvery)
            learning.learnWaiting()
            let now = clock.now
            if now.timeIntervalSince(lastPublish) >= publishEvery {
                learning.publish(now: now)
                lastPublish = now
            }
            if now.timeIntervalSince(lastSave) >= saveEvery {
                await learning.save(now: now)
                lastSave = now
            }
        }
        learning.learnWaiting()
        await learning.save(now: clock.now)
    }
}
