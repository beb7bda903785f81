import FixRecords
import Fleet
import Testing

@Suite(.timeLimit(.minutes(20))) struct DeviceRegistryTests {
    @Test func readsDevicesWithHeaderCommentsAndBlankLines() throws {
        let registry = try DeviceRegistry(csv: """
            device_id,taxi_id
            # the night shift's phones
            359632100000001, NYC-0042

            359632100000002,NYC-0043
            phone-17,NYC-0042
            """)
        #expect(registry.count == 3)
        #expect(registry.taxi(forDevice: "359632100000001") == "NYC-0042")
        #expect(registry.taxi(forDevice: "phone-17") == "NYC-0042")
        #expect(registry.taxi(forDevice: "unknown") == nil)
        #expect(registry.taxis == ["NYC-0042", "NYC-0043"])
    }

    /// Every bad line is named by its number; nothing is half-loaded.
    @Test func rejectsBadLinesByNumber() {
        #expect(throws: DeviceRegistryError.invalid([
            "line 2: expected `device_id,taxi_id`, found `12345`",
            "line 3: device 1 is already registered on line 1",
            "line 4: expected `device_id,taxi_id`, found `7,`",
        ])) {
            try DeviceRegistry(csv: "1,A\n12345\n1,B\n7,\n")
        }
    }

    @Test func missingFileIsUnreadable() {
        #expect {
            try DeviceRegistry.load(path: "no/such/devices.csv")
        } throws: { error in
            if case .unreadable(let path, _) = error as? DeviceRegistryError { return path == "no/such/devices.csv" }
            return false
        }
    }
}
