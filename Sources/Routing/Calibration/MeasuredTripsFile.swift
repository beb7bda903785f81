import Foundation
import GeoKit

/// Reads measured trips from CSV with the column names of the NYC TLC trip
/// records (and the Kaggle "NYC Taxi Trip Duration" data): `pickup_datetime`
/// (local time, `YYYY-MM-DD HH:MM:SS`), `pickup_longitude`, `pickup_latitude`,
/// `dropoff_longitude`, `dropoff_latitude`, `trip_duration` (seconds). Other
/// columns are ignored; rows with a missing or bad value are counted and skipped.
public enum MeasuredTripsFile {
    /// The columns a trips file must have.
    public static let requiredColumns = [
        "pickup_datetime", "pickup_longitude", "pickup_latitude", "dropoff_longitude", "dropoff_latitude", "trip_duration",
    ]

    /// Why a trips file cannot be used at all.
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        case empty
        case missingColumn(String)

        public var description: String {
            switch self {
            case .empty: "the file has no header line"
            case .missingColumn(let name): "the header has no '\(name)' column (needed: \(requiredColumns.joined(separator: ", ")))"
            }
        }
    }

    /// The trips of `text`, local times read in `timeZone`, and how many rows were skipped.
    public static func read(_ text: String, timeZone: TimeZone) throws(ReadError) -> (trips: [MeasuredTrip], skippedRows: Int) {
        var lines = text.split(whereSeparator: \.isNewline).makeIterator()
        guard let header = lines.next() else { throw .empty }
        let names = header.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        var column: [String: Int] = [:]
        for name in requiredColumns {
            guard let index = names.firstIndex(of: name) else { throw .missingColumn(name) }
            column[name] = index
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var trips: [MeasuredTrip] = []
        var skipped = 0
        while let line = lines.next() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            func number(_ name: String) -> Double? {
                let index = column[name]!
                return index < fields.count ? Double(fields[index].trimmingCharacters(in: .whitespaces)) : nil
            }
            guard let fromLon = number("pickup_longitude"), let fromLat = number("pickup_latitude"),
                let toLon = number("dropoff_longitude"), let toLat = number("dropoff_latitude"),
                let duration = number("trip_duration"), duration > 0,
                column["pickup_datetime"]! < fields.count,
                let depart = localDate(fields[column["pickup_datetime"]!], calendar: calendar)
            else {
                skipped += 1
                continue
            }
            let from = Coordinate(longitude: fromLon, latitude: fromLat), to = Coordinate(longitude: toLon, latitude: toLat)
            guard from.isInRange, to.isInRange else {
                skipped += 1
                continue
            }
            trips.append(MeasuredTrip(depart: depart, from: from, to: to, durationSeconds: duration))
        }
        return (trips, skipped)
    }

    /// `YYYY-MM-DD HH:MM:SS` in the calendar's time zone.
    static func localDate(_ field: Substring, calendar: Calendar) -> Date? {
        let parts = field.trimmingCharacters(in: .whitespaces).split(whereSeparator: { "-: T".contains($0) }).compactMap { Int($0) }
        guard parts.count == 6 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (parts[0], parts[1], parts[2])
        (components.hour, components.minute, components.second) = (parts[3], parts[4], parts[5])
        return calendar.date(from: components)
    }
}
