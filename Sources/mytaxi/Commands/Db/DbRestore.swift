import ArgumentParser
import Foundation
import SQLiteStorage

extension Mytaxi.Db {
    /// `mytaxi db restore`: a backup of `mytaxi db backup` put back into a
    /// new data directory, checked, that `mytaxi serve` starts on as it is.
    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Put a backup of db backup into a new data directory, each file checked.",
            discussion: """
                Reads the archive's manifest, unpacks each SQLite file (its checksum verified), checks its size and \
                counts against the manifest and runs PRAGMA integrity_check on it, and only once every file passed \
                moves them into NEWDIR (created when missing), so a refused restore leaves no store there. NEWDIR \
                must hold no store: restoring over one would mix two histories, so it is refused, naming the files. \
                Then `mytaxi serve --data-dir NEWDIR` starts on it as it is, with every fix and command acknowledged \
                before the backup started. Progress goes to standard error, one line per file, what was restored to \
                standard output. Exit status: 0 restored, 1 NEWDIR holds a store, or FILE is no backup or is damaged \
                (named), 2 FILE cannot be read or NEWDIR cannot be written.
                """)

        @Option(name: .shortAndLong, help: ArgumentHelp("The backup to restore (a file of db backup).", valueName: "FILE"))
        var input: String

        @Option(help: ArgumentHelp("The new data directory to restore into (serve --data-dir).", valueName: "NEWDIR"))
        var dataDir: String

        func run() throws {
            do {
                let manifest = try EmbeddedStoreBackup.restore(from: input, into: dataDir) { file in
                    printError("restore: \(file.name): \(byteSize(file.bytes)), integrity ok, \(file.counts)")
                }
                print("\(input) → \(dataDir): restored the backup of \(manifest.dataDirectory), \(manifest.summary())")
            } catch {
                printError("mytaxi db restore: \(error)")
                throw ExitCode(error.isMisuse ? 2 : 1)
            }
        }
    }
}
