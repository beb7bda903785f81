import Accounts
import FixRecords
import Fleet
import Hummingbird
import ServiceClock
import Storage

/// `/v1/taxis` and `/v1/devices` for the register (SPEC D9, I4):
/// administrators add, edit and retire taxis and their tracking devices,
/// which takes effect on every listener at once, without SIGHUP;
/// dispatchers and planners read the register. Every change is in the audit log.
struct TaxiRegisterController: Sendable {
    let register: TaxiRegister
    let accounts: AccountService
    let clock: any ServiceClock

    func addTaxiRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: listTaxis)
        group.post(use: createTaxi)
        group.patch(":taxiId", use: editTaxi)
        group.post(":taxiId/retire", use: retireTaxi)
    }

    func addDeviceRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: listDevices)
        group.post(use: createDevice)
        group.get(":deviceId", use: readDevice)
        group.patch(":deviceId", use: editDevice)
        group.post(":deviceId/retire", use: retireDevice)
    }

    static let readers: Set<Role> = [.administrator, .dispatcher, .planner]

    /// `GET /v1/taxis`: every taxi of the devices file and the store, with its plate, seats, state and devices.
    @Sendable func listTaxis(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: Self.readers)
        return try JSONResponse.ok(register.taxis().map(RegisteredTaxiJSON.init))
    }

    /// `POST /v1/taxis` `{"taxiId", "plate"?, "seats"?}` → 201; 409 when the taxi is known.
    @Sendable func createTaxi(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.administrator])
        let body = try await request.decode(as: NewTaxiBody.self, context: context)
        let id = try Self.taxiIdentifier(body.taxiId, field: "taxiId")
        if register.taxi(id) != nil { throw Problem.conflict("taxi \(id) is registered already; change it with PATCH /v1/taxis/\(id)") }
        let taxi = StoredTaxi(
            id: id, plate: try Self.plate(body.plate), seats: try Self.seats(body.seats ?? DeviceRegistry.defaultSeats),
            active: true, updatedAt: clock.now)
        try await register.put(taxi)
        try await accounts.recordAudit(actor: caller.username, action: "taxi.create", target: id.text, detail: Self.describe(taxi))
        return try JSONResponse.created(RegisteredTaxiJSON(try current(id)), location: "/v1/taxis/\(id)")
    }

    /// `PATCH /v1/taxis/{taxiId}` `{"plate"?, "seats"?, "active"?}`: a taxi of the file is kept in the store from then on.
    @Sendable func editTaxi(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.administrator])
        let id = TaxiID(try context.pathParameter("taxiId"))
        let body = try await request.decode(as: TaxiEditBody.self, context: context)
        guard body.plate != nil || body.seats != nil || body.active != nil else {
            throw Problem.badRequest("the body changes nothing: give 'plate', 'seats' or 'active'")
        }
        guard var taxi = register.storedTaxi(id) else { throw Self.unknownTaxi(id) }
        if let plate = body.plate { taxi.plate = try Self.plate(plate) }
        if let seats = body.seats { taxi.seats = try Self.seats(seats) }
        if let active = body.active { taxi.active = active }
        taxi.updatedAt = clock.now
        try await register.put(taxi)
        try await accounts.recordAudit(actor: caller.username, action: "taxi.edit", target: id.text, detail: Self.describe(taxi))
        return try JSONResponse.ok(RegisteredTaxiJSON(try current(id)))
    }

    /// `POST /v1/taxis/{taxiId}/retire`: the taxi leaves service; its devices are refused from now on.
    @Sendable func retireTaxi(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.administrator])
        let id = TaxiID(try context.pathParameter("taxiId"))
        guard var taxi = register.storedTaxi(id) else { throw Self.unknownTaxi(id) }
        taxi.active = false
        taxi.updatedAt = clock.now
        try await register.put(taxi)
        try await accounts.recordAudit(actor: caller.username, action: "taxi.retire", target: id.text)
        return try JSONResponse.ok(RegisteredTaxiJSON(try current(id)))
    }

    /// `GET /v1/devices`: every device of the devices file and the store (never a secret).
    @Sendable func listDevices(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: Self.readers)
        return try JSONResponse.ok(register.devices().map(RegisteredDeviceJSON.init))
    }

    /// `GET /v1/devices/{deviceId}`.
    @Sendable func readDevice(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: Self.readers)
        let id = try context.pathParameter("deviceId")
        guard let device = register.device(id) else { throw Self.unknownDevice(id) }
        return try JSONResponse.ok(RegisteredDeviceJSON(device))
    }

    /// `POST /v1/devices` `{"deviceId", "taxiId", "protocol"?, "secret"?}` → 201:
    /// the device may report from now on; the taxi must be registered.
    @Sendable func createDevice(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.administrator])
        let body = try await request.decode(as: NewDeviceBody.self, context: context)
        let id = try Self.identifier(body.deviceId, field: "deviceId")
        if register.device(id) != nil {
            throw Problem.conflict("device \(id) is registered already; move it with PATCH /v1/devices/\(id)")
        }
        let taxi = try checkedTaxi(body.taxiId)
        let device = StoredDevice(
            id: id, taxi: taxi, wireProtocol: try Self.wireProtocol(body.protocol), secret: try Self.secret(body.secret),
            retired: false, updatedAt: clock.now)
        try await register.put(device)
        try await accounts.recordAudit(actor: caller.username, action: "device.create", target: id, detail: device.description)
        return try JSONResponse.created(RegisteredDeviceJSON(try currentDevice(id)), location: "/v1/devices/\(id)")
    }

    /// `PATCH /v1/devices/{deviceId}` `{"taxiId"?, "protocol"?, "secret"?}`: a
    /// device moved to another taxi reports for that taxi from its next fix.
    @Sendable func editDevice(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.administrator])
        let id = try context.pathParameter("deviceId")
        let body = try await request.decode(as: DeviceEditBody.self, context: context)
        guard body.taxiId != nil || body.protocol != nil || body.secret != nil else {
            throw Problem.badRequest("the body changes nothing: give 'taxiId', 'protocol' or 'secret'")
        }
        guard var device = register.storedDevice(id) else { throw Self.unknownDevice(id) }
        let before = device.taxi
        if let taxi = body.taxiId { device.taxi = try checkedTaxi(taxi) }
        if let wireProtocol = body.protocol { device.wireProtocol = try Self.wireProtocol(wireProtocol) }
        if let secret = body.secret { device.secret = try Self.secret(secret) }
        device.retired = false
        device.updatedAt = clock.now
        try await register.put(device)
        let moved = before != device.taxi ? "moved from taxi \(before); " : ""
        try await accounts.recordAudit(actor: caller.username, action: "device.edit", target: id, detail: moved + device.description)
        return try JSONResponse.ok(RegisteredDeviceJSON(try currentDevice(id)))
    }

    /// `POST /v1/devices/{deviceId}/retire`: the device is refused from now on.
    @Sendable func retireDevice(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.administrator])
        let id = try context.pathParameter("deviceId")
        guard var device = register.storedDevice(id) else { throw Self.unknownDevice(id) }
        device.retired = true
        device.updatedAt = clock.now
        try await register.put(device)
        try await accounts.recordAudit(actor: caller.username, action: "device.retire", target: id, detail: device.description)
        return try JSONResponse.ok(RegisteredDeviceJSON(try currentDevice(id)))
    }

    private func current(_ id: TaxiID) throws -> TaxiRegister.Taxi {
        guard let taxi = register.taxi(id) else { throw Self.unknownTaxi(id) }
        return taxi
    }

    private func currentDevice(_ id: String) throws -> TaxiRegister.Device {
        guard let device = register.device(id) else { throw Self.unknownDevice(id) }
        return device
    }

    /// The registered, active taxi `text` names, or 422 saying what to do.
    private func checkedTaxi(_ text: String) throws -> TaxiID {
        let id = try Self.taxiIdentifier(text, field: "taxiId")
        guard let taxi = register.taxi(id) else {
            throw Problem.unprocessable("taxi \(id) is not registered; add it first with POST /v1/taxis")
        }
        guard taxi.active else { throw Problem.unprocessable("taxi \(id) is retired; put it back with PATCH /v1/taxis/\(id) {\"active\": true}") }
        return id
    }

    private static func unknownTaxi(_ id: TaxiID) -> Problem {
        .notFound("taxi \(id) is neither in the devices file nor registered; GET /v1/taxis lists them")
    }

    private static func unknownDevice(_ id: String) -> Problem {
        .notFound("device \(id) is neither in the devices file nor registered; GET /v1/devices lists them")
    }

    /// An id of 1 to 64 printable ASCII characters without spaces or commas (the devices file's separator).
    private static func identifier(_ text: String, field: String) throws -> String {
        guard (1...64).contains(text.utf8.count), text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") }) else {
            throw Problem.badRequest("'\(field)' must be 1 to 64 printable ASCII characters without spaces or commas (got '\(text)')")
        }
        return text
    }

    private static func taxiIdentifier(_ text: String, field: String) throws -> TaxiID {
        TaxiID(try identifier(text, field: field))
    }

    private static func seats(_ seats: Int) throws -> Int {
        guard (1...DeviceRegistry.maximumSeats).contains(seats) else {
            throw Problem.badRequest("'seats' must be a whole number from 1 to \(DeviceRegistry.maximumSeats) (got \(seats))")
        }
        return seats
    }

    private static func plate(_ plate: String?) throws -> String? {
        guard let plate, !plate.isEmpty else { return nil }
        guard plate.count <= 16 else { throw Problem.badRequest("'plate' has at most 16 characters (got \(plate.count))") }
        return plate
    }

    private static func wireProtocol(_ name: String?) throws -> String? {
        guard let name, !name.isEmpty else { return nil }
        guard WireProtocol(rawValue: name) != nil else {
            let names = WireProtocol.allCases.map(\.rawValue).joined(separator: ", ")
            throw Problem.badRequest("'protocol' must be one of \(names) (got \(name))")
        }
        return name
    }

    private static func secret(_ text: String?) throws -> String? {
        guard let text, !text.isEmpty else { return nil }
        guard DeviceSecret(registered: text) != nil else {
            throw Problem.badRequest(
                "'secret' must be \(DeviceSecret.minLength) to \(DeviceSecret.maxLength) printable ASCII characters without spaces or commas")
        }
        return text
    }

    private static func describe(_ taxi: StoredTaxi) -> String {
        "plate \(taxi.plate ?? "none"), \(taxi.seats) seats" + (taxi.active ? "" : ", retired")
    }
}

/// The body of `POST /v1/taxis`.
struct NewTaxiBody: Codable, Sendable {
    var taxiId: String
    var plate: String?
    var seats: Int?
}

/// The body of `PATCH /v1/taxis/{taxiId}`.
struct TaxiEditBody: Codable, Sendable {
    var plate: String?
    var seats: Int?
    var active: Bool?
}

/// The body of `POST /v1/devices`.
struct NewDeviceBody: Codable, Sendable {
    var deviceId: String
    var taxiId: String
    var `protocol`: String?
    /// What the device must present (line protocol LOGIN, OsmAnd `key`); never shown again.
    var secret: String?
}

/// The body of `PATCH /v1/devices/{deviceId}`.
struct DeviceEditBody: Codable, Sendable {
    var taxiId: String?
    var `protocol`: String?
    var secret: String?
}

/// A taxi of the register.
struct RegisteredTaxiJSON: Encodable, Sendable {
    var taxiId: String
    var plate: String?
    var seats: Int
    var active: Bool
    var devices: [String]
    /// `file` or `store`.
    var source: String

    init(_ taxi: TaxiRegister.Taxi) {
        taxiId = taxi.id.text
        plate = taxi.plate
        seats = taxi.seats
        active = taxi.active
        devices = taxi.devices
        source = taxi.source
    }
}

/// A device of the register: whether it has a secret, never the secret.
struct RegisteredDeviceJSON: Encodable, Sendable {
    var deviceId: String
    var taxiId: String
    var `protocol`: String?
    var hasSecret: Bool
    var retired: Bool
    /// `file` or `store`.
    var source: String

    init(_ device: TaxiRegister.Device) {
        deviceId = device.id
        taxiId = device.taxi.text
        `protocol` = device.wireProtocol
        hasSecret = device.hasSecret
        retired = device.retired
        source = device.source
    }
}
