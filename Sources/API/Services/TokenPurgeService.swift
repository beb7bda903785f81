import Accounts
import Logging
import ServiceClock
import ServiceLifecycle

/// Forgets expired login and confirmation tokens once an hour, so that the
/// token table holds what can still be used, not every login ever made, and
/// the passengers who let their confirmation expire, so that an abandoned
/// registration does not hold its username and address for ever.
/// A graceful shutdown ends its hour's sleep at once.
struct TokenPurgeService: Service {
    let accounts: AccountService
    let clock: any ServiceClock
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown { [accounts, clock, logger] in
            while !Task.isCancelled {
                do {
                    let purged = try await accounts.purgeExpired()
                    if purged.tokens + purged.accounts > 0 {
                        logger.info("forgot \(purged.tokens) expired tokens and \(purged.accounts) passengers who never confirmed")
                    }
                } catch {
                    logger.warning("expired tokens could not be forgotten now (will try again in an hour): \(error)")
                }
                try await clock.sleep(for: .seconds(3600))
            }
        }
    }
}
