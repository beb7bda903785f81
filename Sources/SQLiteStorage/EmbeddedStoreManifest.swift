import Foundation

/// What a backup of the embedded store holds, written into its archive as
/// `manifest.json`: when it was taken, by which mytaxi, and per copied file
/// its size and a few counts. `mytaxi db restore` reads it first (a file
/// without it is not a backup), checks every copy against it, and prints
/// it; an operator can read it with any unzip tool.
///
/// Every write acknowledged before ``startedAt`` is in the backup, and none
/// acknowledged after ``finishedAt``; one acknowledged in between may be.
public struct EmbeddedStoreManifest: Codable, Sendable, Equatable {
    /// ``format``'s value in every backup of the embedded store.
    public static let formatName = "mytaxi embedded store backup"
    /// The newest ``formatVersion`` this version writes and reads.
    public static let currentFormatVersion = 1

    /// Always ``formatName``: tells a backup from any other ZIP file.
    public var format: String
    /// The layout of the archive; a restore refuses a newer one.
    public var formatVersion: Int
    /// The version of the `mytaxi` that took the backup, when it said.
    public var mytaxiVersion: String?
    /// The data directory the backup was taken of, as an absolute path.
    public var dataDirectory: String
    /// When the first copy began: the backup's moment.
    public var startedAt: Date
    /// When the last copy was in the archive.
    public var finishedAt: Date
    /// The copies, in the order they were taken (``EmbeddedStoreBackup/fileNames``).
    public var files: [File]

    /// One SQLite file of the store, as copied.
    public struct File: Codable, Sendable, Equatable {
        /// The file's name in the data directory and in the archive.
        public var name: String
        /// The copy's size in bytes (a self-contained database, no `-wal`).
        public var bytes: Int64
        /// When its copy began: it holds every write committed to the file before.
        public var copiedAt: Date
        /// What it holds, counted in the copy.
        public var counts: Counts

        /// Makes the description of a copy.
        public init(name: String, bytes: Int64, copiedAt: Date, counts: Counts) {
            self.name = name
            self.bytes = bytes
            self.copiedAt = copiedAt
            self.counts = counts
        }
    }

    /// The rows of one file that tell an operator what the backup holds;
    /// each is there only for the file that has it (nil elsewhere, and
    /// left out of the JSON).
    public struct Counts: Codable, Sendable, Equatable, CustomStringConvertible {
        /// Fix rows: the journal's not yet moved (`fixes-journal.sqlite`) or
        /// the store's (`fixes.sqlite`). A fix that moved while the backup
        /// ran is in both, and read once.
        public var fixes: Int?
        /// Entries of the dispatch log (`dispatch.sqlite`).
        public var dispatchLogEntries: Int?
        /// The dispatch log's newest sequence number: the last command the
        /// backup holds (0 for an empty log).
        public var latestSequence: Int64?
        /// Rides and bookings of the history (`dispatch.sqlite`).
        public var rides: Int?
        /// Accounts of every role and state (`accounts.sqlite`).
        public var accounts: Int?
        /// Zone set versions (`zones.sqlite`).
        public var zoneSetVersions: Int?
        /// Answers kept for requests with an `Idempotency-Key` (`idempotent-answers.sqlite`).
        public var idempotentAnswers: Int?
        /// Saved snapshots of the speeds learned from the fleet, 0 or 1 (`learned-speeds.sqlite`).
        public var learnedSpeedSnapshots: Int?

        /// Counts with none of the rows counted.
        public init() {}

        /// The counts in words: `"120 dispatch log entries (latest sequence 120), 12 rides"`.
        public var description: String {
            var parts: [String] = []
            if let fixes { parts.append(Self.amount(fixes, "fix", "fixes")) }
            if let dispatchLogEntries {
                parts.append(Self.amount(dispatchLogEntries, "dispatch log entry", "dispatch log entries")
                    + " (latest sequence \(latestSequence ?? 0))")
            }
            if let rides { parts.append(Self.amount(rides, "ride", "rides")) }
            if let accounts { parts.append(Self.amount(accounts, "account", "accounts")) }
            if let zoneSetVersions { parts.append(Self.amount(zoneSetVersions, "zone set version", "zone set versions")) }
            if let idempotentAnswers { parts.append(Self.amount(idempotentAnswers, "idempotent answer", "idempotent answers")) }
            if let learnedSpeedSnapshots { parts.append(learnedSpeedSnapshots > 0 ? "learned speeds" : "no learned speeds") }
            return parts.isEmpty ? "nothing counted" : parts.joined(separator: ", ")
        }

        /// `count` and the noun that goes with it: `1 ride`, `2 rides`.
        public static func amount(_ count: Int, _ singular: String, _ plural: String) -> String {
            "\(count) \(count == 1 ? singular : plural)"
        }
    }

    /// A manifest of the current format.
    public init(mytaxiVersion: String?, dataDirectory: String, startedAt: Date, finishedAt: Date, files: [File]) {
        format = Self.formatName
        formatVersion = Self.currentFormatVersion
        self.mytaxiVersion = mytaxiVersion
        self.dataDirectory = dataDirectory
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.files = files
    }

    /// The fix rows of the journal and the store together: an upper bound
    /// on the fixes (a fix that moved during the backup counts twice).
    public var fixRows: Int { files.reduce(0) { $0 + ($1.counts.fixes ?? 0) } }

    /// The counts of the file named `name`, nil when the backup has no copy of it.
    public func counts(of name: String) -> Counts? {
        files.first { $0.name == name }?.counts
    }

    /// The manifest as the archive keeps it: pretty-printed JSON, keys
    /// sorted, times in ISO 8601 UTC with milliseconds.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Self.text(of: date))
        }
        return try encoder.encode(self)
    }

    /// Reads a manifest written by ``json()``.
    /// - Throws: `DecodingError` when `data` is not one.
    public static func read(_ data: Data) throws -> EmbeddedStoreManifest {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = Self.date(from: text) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 time: \(text)"))
            }
            return date
        }
        return try decoder.decode(EmbeddedStoreManifest.self, from: data)
    }

    /// `date` in ISO 8601 UTC with milliseconds, `2026-12-05T21:50:02.114Z`,
    /// rounded to the nearest millisecond (a formatter truncates, and a
    /// time read back is not always the same double: `.114` would become
    /// `.113` on its second write).
    public static func text(of date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle())
        return String(whole.dropLast()) + String(format: ".%03lldZ", milliseconds - seconds * 1000)
    }

    /// The time `text` (ISO 8601, with or without fractional seconds) names, to the millisecond.
    public static func date(from text: String) -> Date? {
        let parsed = (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle()))
        return parsed.map { Date(timeIntervalSince1970: ($0.timeIntervalSince1970 * 1000).rounded() / 1000) }
    }
}
