import DispatchCore
import Zones

extension DispatchCommand {
    /// The command with its pickup's zone taken from `index`: a request's
    /// or a booking's; any other command as it is.
    func placingPickup(in index: ZoneIndex) -> DispatchCommand {
        switch self {
        case .request(let passenger, let pickup, _, let destination, let walk, let seats, let sharing):
            .request(
                passenger, pickup: pickup, zone: index.zone(at: pickup)?.id, destination: destination, walk: walk, seats: seats,
                sharing: sharing)
        case .reserve(let passenger, let origin, _, let destination, let pickupAt, let walk, let seats):
            .reserve(passenger, origin: origin, zone: index.zone(at: origin)?.id, destination: destination, pickupAt: pickupAt,
                     walk: walk, seats: seats)
        default:
            self
        }
    }
}
