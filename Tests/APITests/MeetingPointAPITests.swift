import FixRecords
import Foundation
import GeoKit
import HTTPTypes
import HummingbirdTesting
import JSONKit
import Routing
import Storage
import Testing
@testable import API

/// Meeting points over HTTP (SPEC R5): a passenger who asks where no taxi
/// can stop is told, before and after asking, where the taxi will stop and
/// the walk there; the taxi is sent to that place.
@Suite(.timeLimit(.minutes(20))) struct MeetingPointAPITests {
    /// The middle of a block of the synthetic grid (80 m blocks): more than
    /// 30 m from every street, in zone 161.
    static let midBlock = Coordinate(
        longitude: -73.99 + 200 / (Coordinate.earthRadiusMetres * .pi / 180 * cos(40.75 * .pi / 180)),
        latitude: 40.75 + 200 / (Coordinate.earthRadiusMetres * .pi / 180))
    static let midBlockBody = #"{"pickup": {"lon": \#(midBlock.longitude), "lat": \#(midBlock.latitude)}}"#

    @Test func aRideAskedInTheMiddleOfABlockIsServedAtAMeetingPointWithTheWalkTold() async throws {
        let harness = try await APIHarness(footRouter: APIHarness.walkingRouter())
        let passenger = try await harness.token(.passenger)
        try await harness.test { client in
            let before = try await client.call(.get, "/v1/waits?lon=\(Self.midBlock.longitude)&lat=\(Self.midBlock.latitude)", token: passenger)
            #expect(before.status == .ok)
            let told = try #require(before.body?["meetingPoint"], "the wait is told with the meeting point")

            let ride = try await client.call(.post, "/v1/rides", token: passenger, json: Self.midBlockBody)
            #expect(ride.status == .created)
            let meeting = try #require(ride.body?["meetingPoint"])
            #expect(meeting == told, "the meeting point told before asking is the one served")
            let stop = Coordinate(longitude: try #require(meeting["lon"]?.scalarText.flatMap(Double.init)),
                                  latitude: try #require(meeting["lat"]?.scalarText.flatMap(Double.init)))
            #expect(ride.body?["pickup"]?["lon"] == meeting["lon"] && ride.body?["pickup"]?["lat"] == meeting["lat"],
                    "the taxi is sent to the meeting point")
            #expect(meeting["from"]?["lon"]?.scalarText.flatMap(Double.init) == Self.midBlock.longitude)
            let straight = Self.midBlock.haversineDistance(to: stop)
            #expect(straight > 25 && straight < 60, "the nearest street, \(straight) m away")
            let walkMetres = try #require(meeting["walkM"]?.scalarText.flatMap(Double.init))
            let walkSeconds = try #require(meeting["walkS"]?.scalarText.flatMap(Double.init))
            #expect(walkMetres >= straight - 1 && walkMetres < 200, "\(walkMetres) m")
            #expect(abs(walkSeconds - walkMetres / 1.4) < 30, "\(walkSeconds) s to walk \(walkMetres) m")
            #expect(meeting["walkRouted"]?.scalarText == "true")

            let shown = try await client.call(.get, "/v1/rides/\(try #require(ride["rideId"]))", token: passenger)
            #expect(shown.body?["meetingPoint"] == meeting, "the ride keeps its meeting point")

            let pickupAt = FixTime.iso8601(APIHarness.now.addingTimeInterval(3 * 3600))
            let booked = try await client.call(
                .post, "/v1/reservations", token: passenger,
                json: #"{"pickup": {"lon": \#(Self.midBlock.longitude), "lat": \#(Self.midBlock.latitude)}, "destination": {"lon": -73.98, "lat": 40.76}, "pickupAt": "\#(pickupAt)"}"#)
            #expect(booked.status == .created)
            #expect(booked.body?["meetingPoint"]?["lon"] == meeting["lon"], "a booking is met where a ride now is")
            #expect(booked.body?["pickup"]?["lat"] == meeting["lat"])
        }
    }

    @Test func aPickupBesideAStreetIsServedAtTheDoorAndOneFarFromAnyIsRefused() async throws {
        let harness = try await APIHarness()
        let passenger = try await harness.token(.passenger)
        let dispatcher = try await harness.token(.dispatcher)
        try await harness.test { client in
            let door = try await client.call(
                .post, "/v1/rides", token: passenger,
                json: #"{"pickup": {"lon": \#(APIHarness.midtown.longitude), "lat": \#(APIHarness.midtown.latitude)}}"#)
            #expect(door.status == .created)
            #expect(door.body?["meetingPoint"] == nil)
            #expect(door.body?["pickup"]?["lon"]?.scalarText.flatMap(Double.init) == APIHarness.midtown.longitude)

            let walked = try await client.call(
                .post, "/v1/rides", token: dispatcher,
                json: #"{"pickup": {"lon": \#(Self.midBlock.longitude), "lat": \#(Self.midBlock.latitude)}, "callerPhone": "+1 212 555 0100"}"#)
            #expect(walked.status == .created)
            #expect(walked.body?["meetingPoint"]?["walkRouted"]?.scalarText == "false", "no walking graph: a straight line")

            let offTheMap = try await client.call(
                .post, "/v1/rides", token: dispatcher,
                json: #"{"pickup": {"lon": -73.93, "lat": 40.78}, "callerPhone": "+1 212 555 0101"}"#)
            #expect(offTheMap.status == .unprocessableContent)
            #expect(offTheMap["detail"]?.contains("no taxi can come to the pickup") == true, "\(offTheMap.body.map { "\($0)" } ?? "")")
        }
    }
}
