import Foundation

extension Date {
    /// Whole milliseconds since 1970, rounded: how the stores keep a date.
    package var storedMilliseconds: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }

    /// The date `milliseconds` after 1970, as a store reads it back.
    package init(storedMilliseconds milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// This date as a store gives it back: rounded to the millisecond, so
    /// that every store returns the same dates for the same records.
    package var roundedToStoredMilliseconds: Date {
        Date(storedMilliseconds: storedMilliseconds)
    }
}
