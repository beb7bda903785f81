import FixRecords
import Foundation
import SQLiteStorage
import Storage
import Synchronization
import Testing
import TestSupport

/// `mytaxi db backup` and `db restore`'s work: an embedded store written
/// through the real SQLite stores is backed up into one archive and
/// restored into a new directory, which reads back as the original did; a
/// directory holding a store and a damaged archive are refused, leaving no
/// store behind.
@Suite(.timeLimit(.minutes(20))) struct EmbeddedStoreBackupTests {
    static let answer = IdempotentAnswer(
        scope: "passenger:bea POST /v1/rides key-1", fingerprint: "f1", status: 201, contentType: "application/json",
        location: "/v1/rides/R1", body: Data(#"{"rideId":"R1"}"#.utf8), answeredAt: SQLiteImportTests.start)

    /// A store of every file, filled as a service would (fixes in the
    /// journal and the store, one in both), and its backup in `folder`.
    static func backedUpStore(in folder: String) async throws -> (data: String, archive: String, manifest: EmbeddedStoreManifest) {
        let data = folder + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        _ = try await SQLiteImportTests.fillEmbeddedStore(data)
        _ = try await SQLiteIdempotentAnswerStore(directory: data).keep(Self.answer)
        let archive = folder + "/backup.zip"
        let manifest = try EmbeddedStoreBackup.backUp(dataDirectory: data, to: archive, mytaxiVersion: "9.9.9")
        return (data, archive, manifest)
    }

    @Test func aRestoredStoreReadsBackAsTheOriginal() async throws {
        let folder = TemporaryDirectory()
        let (data, archive, manifest) = try await Self.backedUpStore(in: folder.path)
        #expect(manifest.files.map(\.name) == EmbeddedStoreBackup.fileNames, "every file, the journal before the store")
        #expect(manifest.counts(of: "fixes-journal.sqlite")?.fixes == 201)
        #expect(manifest.counts(of: "fixes.sqlite")?.fixes == 300)
        let dispatch = try #require(manifest.counts(of: "dispatch.sqlite"))
        #expect(dispatch.dispatchLogEntries == 2 && dispatch.latestSequence == 2 && dispatch.rides == 1)
        #expect(manifest.counts(of: "accounts.sqlite")?.accounts == 3)
        #expect(manifest.counts(of: "zones.sqlite")?.zoneSetVersions == 2)
        #expect(manifest.counts(of: "idempotent-answers.sqlite")?.idempotentAnswers == 1)
        #expect(manifest.mytaxiVersion == "9.9.9" && manifest.startedAt <= manifest.finishedAt)
        #expect(!FileManager.default.fileExists(atPath: archive + ".partial"))

        let restored = folder.path + "/restored/data"
        var checked: [String] = []
        let read = try EmbeddedStoreBackup.restore(from: archive, into: restored) { checked.append($0.name) }
        #expect(try read.json() == (try manifest.json()), "the manifest reads back as it was written (times to the millisecond)")
        #expect(checked == EmbeddedStoreBackup.fileNames)
        #expect(try FileManager.default.contentsOfDirectory(atPath: restored).sorted() == EmbeddedStoreBackup.fileNames.sorted(),
                "the files and nothing else: no -wal, no unpacking folder")

        let (original, copy) = (try SQLiteStoreReader(directory: data), try SQLiteStoreReader(directory: restored))
        #expect(try Self.fixes(copy) == (try Self.fixes(original)))
        #expect(try Self.fixes(copy).count == 500)
        #expect(try Self.entries(copy) == (try Self.entries(original)))
        #expect(try copy.dispatchSnapshot() == (try original.dispatchSnapshot()))
        #expect(try copy.rideHistory() == (try original.rideHistory()))
        #expect(try copy.accounts() == (try original.accounts()))
        #expect(try copy.accounts().map(\.username) == ["Ada", "bea", "Cy"])
        #expect(try copy.tokens() == (try original.tokens()))
        #expect(try copy.outbox() == (try original.outbox()))
        #expect(try copy.zoneSets().map(\.geoJSON) == (try original.zoneSets().map(\.geoJSON)))
        #expect(try copy.learnedSpeeds() == SQLiteImportTests.learnedSpeeds)
        #expect(try await SQLiteIdempotentAnswerStore(directory: restored).answer(for: Self.answer.scope) == Self.answer)

        // The stores open on it as the service opens them, and the archive takes its journal in.
        let archiveStore = try SQLiteFixArchive(directory: restored)
        #expect(try await archiveStore.count() == 500, "the fix in both the journal and the store counts once")
    }

    /// The journal is copied before the store: with a writer committing and
    /// the mover moving every 5 ms throughout, every fix committed before
    /// the backup started is in the restored archive, the ones moved in
    /// between counted twice in the manifest and returned once.
    @Test func everyFixCommittedBeforeTheBackupIsInItWhileFixesMove() async throws {
        let folder = TemporaryDirectory()
        let data = folder.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let archive = try SQLiteFixArchive(directory: data, moveInterval: .milliseconds(5), segmentRows: 500)
        let writer = Writer()
        Thread {
            var batches = 0
            while !writer.stop.load(ordering: .acquiring) {
                let batch = (0..<20).map { makeFix(taxi: "T\($0)", second: batches * 20 + $0) }
                guard (try? archive.append(batch)) != nil else { continue }
                batches += 1
                writer.committed.store(batches * 20, ordering: .releasing)
            }
        }.start()
        defer { writer.stop.store(true, ordering: .releasing) }
        try await waitUntil("4,000 fixes committed") { writer.committed.load(ordering: .acquiring) >= 4_000 }
        let before = writer.committed.load(ordering: .acquiring)
        let manifest = try EmbeddedStoreBackup.backUp(dataDirectory: data, to: folder.path + "/backup.zip")
        let after = writer.committed.load(ordering: .acquiring)
        try await waitUntil("1,000 fixes committed after the backup") { writer.committed.load(ordering: .acquiring) >= after + 1_000 }
        writer.stop.store(true, ordering: .releasing)

        let restored = folder.path + "/restored"
        try EmbeddedStoreBackup.restore(from: folder.path + "/backup.zip", into: restored)
        let fixes = try Self.fixes(try SQLiteStoreReader(directory: restored))
        // Batches are committed in order, so the first `before` fixes are the ones committed before the backup.
        let expected = Set((0..<before).map { index in "T\(index % 20) \(1_790_000_000 + index)" })
        let missing = expected.subtracting(fixes.map { "\($0.taxi) \(Int($0.time.timeIntervalSince1970))" })
        #expect(missing.count == 0, "fixes committed before the backup but not in it, e.g. \(missing.sorted().prefix(5))")
        #expect(fixes.count >= before && fixes.count <= manifest.fixRows)
        #expect(try await SQLiteFixArchive(directory: restored).count() == fixes.count)
    }

    @Test func aDirectoryHoldingAStoreIsRefusedNamingItsFiles() async throws {
        let folder = TemporaryDirectory()
        let (_, archive, _) = try await Self.backedUpStore(in: folder.path)
        let target = try Self.made(folder.path + "/other")
        let accounts = try SQLiteAccountStore(directory: target)
        try "dev-1,T1\n".write(toFile: target + "/devices.csv", atomically: true, encoding: .utf8)
        let before = try FileManager.default.contentsOfDirectory(atPath: target).sorted()
        do {
            try EmbeddedStoreBackup.restore(from: archive, into: target)
            Issue.record("a backup was restored over a store")
        } catch {
            guard case .targetHoldsStore(target, let files) = error else { throw error }
            #expect(files.first == "accounts.sqlite" && !files.contains("devices.csv"), "\(files)")
            #expect(error.description.contains("(\(files.joined(separator: ", ")))"), "\(error)")
            #expect(!error.isMisuse)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).sorted() == before, "nothing was added or removed")
        _ = accounts
    }

    /// Damage of each kind, and a file that is no backup: each refused with
    /// what is wrong, and no store file left in the target.
    @Test(arguments: [
        ("bytes changed in a copy", "the backup"), ("cut short", "the backup"), ("no ZIP archive", "the backup"),
        ("a ZIP archive without a manifest", "is not a backup"),
    ])
    func aDamagedArchiveIsRefusedAndRestoresNothing(damage: String, named: String) async throws {
        let folder = TemporaryDirectory()
        let (_, archive, _) = try await Self.backedUpStore(in: folder.path)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
        switch damage {
        case "bytes changed in a copy":
            for offset in bytes.count / 2..<bytes.count / 2 + 64 { bytes[offset] ^= 0x5A }
        case "cut short":
            bytes = bytes.prefix(bytes.count * 2 / 3)
        case "no ZIP archive":
            bytes = Data("SQLite format 3\0 but no archive".utf8)
        default:
            // The manifest's name, in its entry's local header and in the directory, made another.
            bytes = Self.replacing(Data(EmbeddedStoreBackup.manifestName.utf8), with: Data("manifest.jso_".utf8), in: bytes)
        }
        try bytes.write(to: URL(fileURLWithPath: archive))
        let target = folder.path + "/restored"
        do {
            try EmbeddedStoreBackup.restore(from: archive, into: target)
            Issue.record("a damaged archive (\(damage)) was restored")
        } catch {
            #expect(!error.isMisuse, "a damaged archive is refused as a problem of the data (exit 1)")
            #expect(error.description.contains(archive) && error.description.contains(named), "\(error)")
            #expect(error.description.hasSuffix("nothing was restored"), "\(error)")
            if case .damaged = error {} else if case .notABackup = error {} else { Issue.record("\(damage): \(error)") }
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? []
        #expect(left.isEmpty, "\(damage): \(left) left in the target")
    }

    @Test func aBackupRefusesAnExistingFileAndAMissingStoreAndLeavesNoPartialFile() async throws {
        let folder = TemporaryDirectory()
        let (data, archive, _) = try await Self.backedUpStore(in: folder.path)
        #expect(throws: EmbeddedStoreBackupError.outputExists(path: archive)) {
            try EmbeddedStoreBackup.backUp(dataDirectory: data, to: archive)
        }
        let replaced = try EmbeddedStoreBackup.backUp(dataDirectory: data, to: archive, replacing: true)
        #expect(replaced.files.count == EmbeddedStoreBackup.fileNames.count)
        let empty = try Self.made(folder.path + "/empty")
        #expect(throws: EmbeddedStoreBackupError.noStore(directory: empty)) {
            try EmbeddedStoreBackup.backUp(dataDirectory: empty, to: folder.path + "/none.zip")
        }
        let nowhere = folder.path + "/no-such-folder/backup.zip"
        do {
            try EmbeddedStoreBackup.backUp(dataDirectory: data, to: nowhere)
            Issue.record("a backup into a missing folder was written")
        } catch {
            guard case .outputUnwritable = error else { throw error }
            #expect(error.isMisuse)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["backup.zip", "data", "empty"])
    }

    // MARK: - Helpers

    /// Every fix row of a store (journal and store), each (taxi, time, device) once.
    static func fixes(_ reader: SQLiteStoreReader) throws -> Set<FixKey> {
        var keys = Set<FixKey>()
        try reader.forEachFixBatch(size: 1_000) { batch in
            for fix in batch { keys.insert(FixKey(taxi: fix.taxiId.text, time: fix.time, device: fix.deviceId)) }
        }
        return keys
    }

    struct FixKey: Hashable {
        var taxi: String
        var time: Date
        var device: String
    }

    static func entries(_ reader: SQLiteStoreReader) throws -> [DispatchLogEntry] {
        var entries: [DispatchLogEntry] = []
        try reader.forEachDispatchLogBatch(size: 100) { entries += $0 }
        return entries
    }

    /// `path`, created.
    static func made(_ path: String) throws -> String {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `data` with every `pattern` replaced by `replacement`, of the same length.
    static func replacing(_ pattern: Data, with replacement: Data, in data: Data) -> Data {
        var data = data
        var start = data.startIndex
        while let range = data.range(of: pattern, in: start..<data.endIndex) {
            data.replaceSubrange(range, with: replacement)
            start = range.upperBound
        }
        return data
    }

    /// A writer thread's count of fixes committed, and when to stop it.
    final class Writer: Sendable {
        let committed = Atomic(0)
        let stop = Atomic(false)
    }
}
