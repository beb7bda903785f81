import Accounts
import Logging

/// Forgets expired login and confirmation tokens once an hour, so that the
/// token table holds what can still be used, not every login ever made, and
/// the passengers who let their confirmation expire, so that an abandoned
/// registration does not hold its username and address for ever.
struct TokenPurge: PeriodicWork {
    let accounts: AccountService
    let logger: Logger
    let interval: Duration = .seconds(3600)

    func round() async {
        do {
            let purged = try await accounts.purgeExpired()
            if purged.tokens + purged.accounts > 0 {
                logger.info("forgot \(purged.tokens) expired tokens and \(purged.accounts) passengers who never confirmed")
            }
        } catch {
            logger.warning("expired tokens could not be forgotten now (will try again in an hour): \(error)")
        }
    }
}
