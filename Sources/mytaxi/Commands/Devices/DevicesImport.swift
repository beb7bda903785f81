import Accounts
import ArgumentParser
import FixRecords
import Fleet
import Foundation
import ServiceClock
import Storage

extension Mytaxi.Devices {
    /// `mytaxi devices import FILE`: a devices file's taxis and devices into the store.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a devices file (device_id,taxi_id[,secret[,seats]]) into the store.",
            discussion: """
                Every device of the file is created or replaced in the store (its taxi, its secret) \\
                and every taxi of the file is registered, active, with the file's seats (its plate, \\
                if the store has one, is kept). Devices and taxis the file does not name are left \\
                as they are. The whole file is checked first: a file with a bad line imports \\
                nothing and every problem is named by line.

                Exit status: 0 imported, 1 the file was refused (every problem on standard error) or \\
                the store failed, 2 the file or the store cannot be opened.
                """)

        @OptionGroup var data: AccountsDataDirectory

        @Argument(help: ArgumentHelp("The devices file.", valueName: "FILE"))
        var file: String

        func run() async throws {
            let text: String
            let registry: DeviceRegistry
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
                registry = try DeviceRegistry(csv: text)
            } catch let error as DeviceRegistryError {
                printError("error: \(error)")
                throw ExitCode(1)
            } catch {
                printError("error: cannot read the devices file \(file): \((error as NSError).localizedDescription)")
                throw ExitCode(2)
            }
            let (accounts, store) = try data.openStores(create: false)
            let now = SystemClock().now
            do {
                let known = Dictionary(uniqueKeysWithValues: try await store.storedTaxis().map { ($0.id, $0) })
                for taxi in registry.taxis.sorted(by: { $0.text < $1.text }) {
                    try await store.putTaxi(StoredTaxi(
                        id: taxi, plate: known[taxi]?.plate, seats: registry.seats(of: taxi), active: true, updatedAt: now))
                }
                for line in Self.deviceLines(of: text) {
                    guard let device = registry.device(line.device) else { continue }
                    try await store.putDevice(StoredDevice(
                        id: line.device, taxi: device.taxi, wireProtocol: nil, secret: line.secret, retired: false, updatedAt: now))
                }
                try await accounts.recordAudit(
                    actor: AccountService.consoleActor, action: "devices.import", target: file,
                    detail: "\(registry.taxis.count) taxis, \(registry.count) devices")
            } catch {
                printError("error: the store failed, the import is partial; run it again: \(error)")
                throw ExitCode(1)
            }
            print("imported \(registry.count) devices of \(registry.taxis.count) taxis from \(file)")
        }

        /// Each device line's id and secret, in a file ``DeviceRegistry`` accepted
        /// (which keeps secrets to itself: it never hands their text out).
        static func deviceLines(of text: String) -> [(device: String, secret: String?)] {
            text.split(separator: "\n").compactMap { rawLine in
                let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !line.isEmpty, !line.hasPrefix("#") else { return nil }
                let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                guard fields.count >= 2, fields[0].lowercased() != "device_id" else { return nil }
                return (fields[0], fields.count >= 3 && !fields[2].isEmpty ? fields[2] : nil)
            }
        }
    }
}
