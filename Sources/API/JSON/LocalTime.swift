import Foundation

/// Times in the city's own time zone, for people who read them there (a
/// calendar app's user): ISO 8601 with the zone's offset of that date,
/// e.g. `2026-11-29T07:40:19-05:00`, beside the UTC times the API gives.
struct LocalTime: Sendable {
    let timeZone: TimeZone

    /// `date` in ``timeZone``, to the second.
    func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
