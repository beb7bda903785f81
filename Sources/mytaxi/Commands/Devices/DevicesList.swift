import ArgumentParser
import Storage

extension Mytaxi.Devices {
    /// `mytaxi devices list`: the taxis and devices kept in the store.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the taxis and devices kept in the store (not those only in the devices file).",
            discussion: """
                One line per taxi (`taxi ID: PLATE, N seats[, retired]`) followed by its devices \\
                (`  device ID[, PROTOCOL][, with a secret][, retired]`); a secret is never printed.

                Exit status: 0 on success, 1 when the store fails, 2 when it cannot be opened.
                """)

        @OptionGroup var data: AccountsDataDirectory

        func run() async throws {
            let (_, store) = try data.openStores(create: false)
            do {
                let devices = try await store.storedDevices()
                let taxis = try await store.storedTaxis()
                for taxi in taxis {
                    print("taxi \(taxi.id): \(taxi.plate ?? "no plate"), \(taxi.seats) seats" + (taxi.active ? "" : ", retired"))
                    for device in devices where device.taxi == taxi.id { print("  \(Self.line(device))") }
                }
                let known = Set(taxis.map(\.id))
                for device in devices where !known.contains(device.taxi) { print(device) }
            } catch {
                printError("error: the store failed: \(error)")
                throw ExitCode(1)
            }
        }

        /// A device under its taxi's line: its id, protocol and state, never its secret.
        static func line(_ device: StoredDevice) -> String {
            "device \(device.id)" + (device.wireProtocol.map { ", \($0)" } ?? "") + (device.secret == nil ? "" : ", with a secret")
                + (device.retired ? ", retired" : "")
        }
    }
}
