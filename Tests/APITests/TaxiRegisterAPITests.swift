import Accounts
import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Ingest
import MytaxiServer
import JSONKit
import Storage
import Testing
@testable import API

/// Taxis and devices through the API (SPEC D9, I4): an administrator adds
/// a taxi and its device, which the listeners take at once, without a
/// restart or SIGHUP; moves a device to another taxi; retires a device and
/// a taxi; and the register says where each record comes from.
@Suite(.timeLimit(.minutes(20))) struct TaxiRegisterAPITests {
    @Test func aTaxiAndItsDeviceAddedThroughTheAPIAreTakenAtOnce() async throws {
        let harness = try await APIHarness()
        let admin = try await harness.token(.administrator)
        let dispatcher = try await harness.token(.dispatcher)
        let pipeline = harness.service.pipeline
        #expect(pipeline.refusal(ofDevice: "imei-77", credential: nil, via: .gt06) == .unknownDevice)
        try await harness.test { client in
            let taxi = try await client.call(.post, "/v1/taxis", token: admin, json: #"{"taxiId": "T77", "plate": "7Y77", "seats": 6}"#)
            #expect(taxi.status == .created)
            #expect(taxi["source"] == "store")
            #expect(try await client.call(.post, "/v1/taxis", token: admin, json: #"{"taxiId": "T77"}"#).status == .conflict)
            #expect(try await client.call(.post, "/v1/taxis", token: admin, json: #"{"taxiId": "T 7"}"#).status == .badRequest)
            let noTaxi = try await client.call(.post, "/v1/devices", token: admin, json: #"{"deviceId": "imei-78", "taxiId": "T78"}"#)
            #expect(noTaxi.status == .unprocessableContent)
            #expect(noTaxi["detail"]?.contains("POST /v1/taxis") == true)

            let device = try await client.call(
                .post, "/v1/devices", token: admin, json: #"{"deviceId": "imei-77", "taxiId": "T77", "protocol": "gt06"}"#)
            #expect(device.status == .created)
            #expect(device["hasSecret"] == "false")
            #expect(pipeline.refusal(ofDevice: "imei-77", credential: nil, via: .gt06) == nil, "taken at once, no SIGHUP")
            #expect(pipeline.taxi(forDevice: "imei-77") == "T77")
            #expect(pipeline.seats(of: "T77") == 6)
            #expect(try await client.call(.post, "/v1/accounts", token: admin,
                                          json: #"{"role": "driver", "username": "T77", "password": "\#(APIHarness.password)"}"#).status == .created,
                    "its driver's account can be made now")

            let withSecret = try await client.call(
                .post, "/v1/devices", token: admin, json: #"{"deviceId": "phone-77", "taxiId": "T77", "protocol": "osmand", "secret": "s3cret-phone"}"#)
            #expect(withSecret["hasSecret"] == "true")
            #expect(withSecret.body?["secret"] == nil, "a secret is never shown")
            #expect(pipeline.refusal(ofDevice: "phone-77", credential: nil, via: .osmand) != nil, "a device with a secret must present it")

            let moved = try await client.call(.patch, "/v1/devices/imei-77", token: admin, json: #"{"taxiId": "T1"}"#)
            #expect(moved["taxiId"] == "T1")
            #expect(pipeline.taxi(forDevice: "imei-77") == "T1", "a moved device reports for its new taxi")
            #expect(try await client.call(.post, "/v1/devices/imei-77/retire", token: admin)["retired"] == "true")
            #expect(pipeline.refusal(ofDevice: "imei-77", credential: nil, via: .gt06) == .unknownDevice, "a retired device is refused")

            let fileDevice = try #require(harness.service.api.taxiRegister.registry.allDevices.first { $0.value.taxi == "T2" }?.key)
            #expect(try await client.call(.get, "/v1/devices/\(fileDevice)", token: dispatcher)["source"] == "file")
            #expect(try await client.call(.post, "/v1/taxis/T2/retire", token: admin)["active"] == "false")
            #expect(pipeline.refusal(ofDevice: fileDevice, credential: nil, via: .line) == .unknownDevice,
                    "a retired taxi's devices are refused, those of the devices file too")
            #expect(try await client.call(.patch, "/v1/taxis/T2", token: admin, json: #"{"active": true}"#)["active"] == "true")
            #expect(pipeline.refusal(ofDevice: fileDevice, credential: nil, via: .line) == nil)

            let taxis = try await client.call(.get, "/v1/taxis", token: dispatcher).list()
            let t77 = try #require(taxis.first { $0["taxiId"]?.scalarText == "T77" })
            #expect(t77["plate"]?.scalarText == "7Y77" && t77["seats"]?.scalarText == "6")
            guard case .array(let devices)? = t77["devices"] else { throw APITestFailure("no devices: \(t77)") }
            #expect(devices.compactMap(\.scalarText) == ["phone-77"])
            #expect(try await client.call(.post, "/v1/taxis", token: dispatcher, json: #"{"taxiId": "T9"}"#).status == .forbidden)

            let audit = try await client.call(.get, "/v1/audit", token: admin).list().compactMap { $0["action"]?.scalarText }
            #expect(audit.prefix(4) == ["taxi.edit", "taxi.retire", "device.retire", "device.edit"])
        }
    }

    /// A driver whose taxi is retired cannot go on duty: the login is
    /// refused (403, saying why) and leaves no session; back in service, it logs in.
    @Test func aRetiredTaxisDriverCannotGoOnDuty() async throws {
        let harness = try await APIHarness()
        let admin = try await harness.token(.administrator)
        let login = #"{"username": "T1", "password": "\#(APIHarness.password)"}"#
        try await harness.test { client in
            #expect(try await client.call(.post, "/v1/taxis/T1/retire", token: admin)["active"] == "false")
            let refused = try await client.call(.post, "/v1/sessions", json: login)
            #expect(refused.status == .forbidden)
            #expect(refused["detail"]?.contains("taxi T1 has no device in service") == true)
            #expect(await harness.dispatcher.snapshot.state(of: "T1") == .offDuty, "not put on duty")
            #expect(try await client.call(.patch, "/v1/taxis/T1", token: admin, json: #"{"active": true}"#)["active"] == "true")
            #expect(try await client.call(.post, "/v1/sessions", json: login).status == .created)
            #expect(await harness.dispatcher.snapshot.state(of: "T1") == .unavailable, "on duty again")
        }
    }
}
