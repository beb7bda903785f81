import Logging
import Mail

/// Sends the outbox's due e-mails to the mail relay every 5 s (`--smtp`).
struct OutboxDeliveryRounds: PeriodicWork {
    let delivery: OutboxDelivery
    let logger: Logger
    let interval: Duration = .seconds(5)

    func round() async {
        do {
            try await delivery.deliverDue()
        } catch {
            logger.warning("the outbox could not be read now (trying again in 5 s): \(error)")
        }
    }
}
