import Foundation
import SQLiteStorage

extension EmbeddedStoreManifest {
    /// What the backup holds, in one line: its files and their size (with
    /// `archived`, the archive's size too), when it was taken and how long
    /// that took, and the counts that tell what is in it.
    func summary(archived: Int64? = nil) -> String {
        let bytes = files.reduce(Int64(0)) { $0 + $1.bytes }
        var holds = [Counts.amount(fixRows, "fix row", "fix rows")]
        for name in ["dispatch.sqlite", "accounts.sqlite", "zones.sqlite"] {
            if let counts = counts(of: name) { holds.append(counts.description) }
        }
        let size = archived.map { "\(byteSize(bytes)), \(byteSize($0)) in the archive" } ?? byteSize(bytes)
        let version = mytaxiVersion.map { " by mytaxi \($0)" } ?? ""
        let took = String(format: "%.1f s", finishedAt.timeIntervalSince(startedAt))
        return "\(Counts.amount(files.count, "file", "files")) (\(size)) taken \(Self.text(of: startedAt))\(version) in \(took): "
            + holds.joined(separator: ", ")
    }
}

/// A size in bytes for people: `512 B`, `20.5 kB`, `1.2 MB`, `3.4 GB` (powers of 1,000).
func byteSize(_ bytes: Int64) -> String {
    let units = ["kB", "MB", "GB", "TB"]
    guard bytes >= 1_000 else { return "\(bytes) B" }
    var value = Double(bytes) / 1_000
    var unit = 0
    while value >= 1_000, unit < units.count - 1 {
        value /= 1_000
        unit += 1
    }
    return String(format: "%.1f", value) + " " + units[unit]
}
