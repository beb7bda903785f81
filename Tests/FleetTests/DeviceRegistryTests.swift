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
            "line 2: expected `device_id,taxi_id`, `device_id,taxi_id,secret` or `device_id,taxi_id,secret,seats`, found `12345`",
            "line 3: device 1 is already registered on line 1",
            "line 4: expected `device_id,taxi_id`, `device_id,taxi_id,secret` or `device_id,taxi_id,secret,seats`, found `7,`",
        ])) {
            try DeviceRegistry(csv: "1,A\n12345\n1,B\n7,\n")
        }
    }

    /// The fourth column is the taxi's seats, four when left out; one
    /// taxi's lines may not disagree, and a number outside 1 to 20 is named.
    @Test func aFourthColumnGivesTheTaxiItsSeats() throws {
        let registry = try DeviceRegistry(csv: """
            device_id,taxi_id,secret,seats
            LINE-1,VAN1,,7
            phone-1,VAN1,s3cret-Phone-1,7
            LINE-2,TX2
            LINE-3,TX3,,
            """)
        #expect(registry.seats(of: "VAN1") == 7)
        #expect(registry.seats(of: "TX2") == 4)
        #expect(registry.seats(of: "TX3") == 4)
        #expect(registry.largestSeats == 7)
        #expect(registry.device("phone-1")?.secret != nil)
        #expect(try DeviceRegistry(csv: "LINE-2,TX2\n").largestSeats == 4)
        #expect(DeviceRegistry().largestSeats == nil)
        #expect(throws: DeviceRegistryError.invalid([
            "line 2: taxi VAN1 has 6 seats here but 7 on line 1",
            "line 3: the seats of taxi TX3 (the fourth field) must be a whole number from 1 to 20",
            "line 4: the seats of taxi TX4 (the fourth field) must be a whole number from 1 to 20",
        ])) {
            try DeviceRegistry(csv: "LINE-1,VAN1,,7\nLINE-9,VAN1,,6\nLINE-3,TX3,,0\nLINE-4,TX4,,many\n")
        }
    }

    /// The third column is the device's secret, optional per device: an
    /// empty field or a two-column line is a device without one, and the
    /// old two-column file reads as before.
    @Test func aThirdColumnGivesADeviceItsSecret() throws {
        let registry = try DeviceRegistry(csv: """
            device_id,taxi_id,secret
            LINE-1,TX1,s3cret-Line-1
            359632100000001,TX2,
            phone-17,TX1
            """)
        #expect(registry.count == 3)
        #expect(registry.secretCount == 1)
        #expect(registry.taxi(forDevice: "LINE-1") == "TX1")
        let line = try #require(registry.device("LINE-1"))
        #expect(line.taxi == "TX1")
        #expect(line.secret?.matches(DeviceSecret(presented: "s3cret-Line-1")) == true)
        #expect(line.secret?.matches(DeviceSecret(presented: "s3cret-Line-2")) == false)
        #expect(registry.device("359632100000001")?.secret == nil)
        #expect(registry.device("phone-17")?.secret == nil)
        #expect(registry.device("unknown") == nil)
    }

    /// A bad secret, or a secret with a comma (read as a fourth field,
    /// the seats), is named by its line number and device, and the error
    /// never shows a secret.
    @Test func badSecretLinesAreNamedWithoutShowingTheSecret() throws {
        let csv = """
            device_id,taxi_id,secret
            LINE-1,TX1,short
            LINE-2,TX2,has space inside
            LINE-3,TX3,s3cret-with,tail-part
            LINE-4,TX4,\(String(repeating: "x", count: 65))
            LINE-5,TX5,fine-secret-5
            """
        #expect(throws: DeviceRegistryError.invalid([
            "line 2: the secret of device LINE-1 must be 8 to 64 printable ASCII characters without spaces or commas",
            "line 3: the secret of device LINE-2 must be 8 to 64 printable ASCII characters without spaces or commas",
            "line 4: the seats of taxi TX3 (the fourth field) must be a whole number from 1 to 20",
            "line 5: the secret of device LINE-4 must be 8 to 64 printable ASCII characters without spaces or commas",
        ])) {
            try DeviceRegistry(csv: csv)
        }
        do {
            _ = try DeviceRegistry(csv: csv)
        } catch {
            for secret in ["short", "has space inside", "s3cret-with", "tail-part", "xxxxxxxx"] {
                #expect(!error.description.contains(secret), "the error shows a secret: \(error)")
            }
        }
    }

    /// A secret printed, interpolated or dumped shows `<secret>`, never its text.
    @Test func aSecretIsNeverPrinted() throws {
        let registry = try DeviceRegistry(csv: "LINE-1,TX1,s3cret-Line-1\n")
        let device = try #require(registry.device("LINE-1"))
        var dumped = ""
        dump(device, to: &dumped)
        for text in [String(describing: device), String(reflecting: device), "\(registry)", dumped] {
            #expect(!text.contains("s3cret"), "\(text)")
        }
        #expect(String(describing: device.secret!) == "<secret>")
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
