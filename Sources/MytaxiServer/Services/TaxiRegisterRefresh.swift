import API
import Fleet
import Logging

/// Reads the taxis and devices the store holds every few seconds, so that
/// what an administrator changed through another node of the same store
/// reaches this node's listeners (a change through this node is applied at once).
struct TaxiRegisterRefresh: PeriodicWork {
    let register: TaxiRegister
    let logger: Logger
    let interval: Duration = .seconds(5)

    func round() async {
        do {
            if try await register.refresh() { logger.info("read the taxis and devices anew: \(register.registry.count) devices") }
        } catch {
            logger.warning("the taxis and devices could not be read now (the listeners keep the last ones; trying again in 5 s): \(error)")
        }
    }
}
