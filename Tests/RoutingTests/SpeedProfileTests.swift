import Foundation
import Testing
@testable import Routing

@Suite(.timeLimit(.minutes(20))) struct SpeedProfileTests {
    /// Rules apply in order over a free-flow start; comments, blanks and the header are skipped.
    @Test func parsesAGoodFile() throws {
        let profile = try SpeedProfile(parsing: """
            # Test city
            road_class,hour_of_week,factor

            *,7-9,0.6
            residential,8,0.9   # quieter side streets
            living_street,*,0.5
            """)
        #expect(profile.factor(.primary, hourOfWeek: 7) == 0.6)
        #expect(profile.factor(.residential, hourOfWeek: 8) == 0.9)
        #expect(profile.factor(.residential, hourOfWeek: 9) == 0.6)
        #expect(profile.factor(.primary, hourOfWeek: 10) == 1)
        #expect(profile.factor(.livingStreet, hourOfWeek: 100) == 0.5)
    }

    /// Lane-class and zone lines set factors that multiply the class's; the
    /// old format (classes only) still reads, with every lane and zone at 1.
    @Test func readsLaneAndZoneFactors() throws {
        let profile = try SpeedProfile(parsing: """
            road_class,hour_of_week,factor
            *,*,0.8
            lanes:narrow,*,0.6
            zone:161,*,0.75
            zone:161,7-9,0.5
            zone:Monte-Carlo,*,1.2
            """)
        #expect(profile.factor(.primary, hourOfWeek: 7) == 0.8)
        #expect(profile.laneFactor(.narrow, hourOfWeek: 100) == 0.6)
        #expect(profile.laneFactor(.wide, hourOfWeek: 100) == 1)
        #expect(profile.laneFactor(.untagged, hourOfWeek: 100) == 1)
        #expect(profile.zoneFactor("161", hourOfWeek: 8) == 0.5)
        #expect(profile.zoneFactor("161", hourOfWeek: 10) == 0.75)
        #expect(profile.zoneFactor("Monte-Carlo", hourOfWeek: 0) == 1.2)
        #expect(profile.zoneFactor("162", hourOfWeek: 8) == 1, "a zone the profile does not name flows at its class's speed")
        #expect(try SpeedProfile(parsing: profile.text) == profile)
        #expect(profile.text.contains("\nlanes:narrow,*,0.6\n"))
        #expect(profile.text.contains("\nzone:161,0-6,0.75\nzone:161,7-9,0.5\nzone:161,10-167,0.75\nzone:Monte-Carlo,*,1.2\n"))

        let classesOnly = try SpeedProfile(parsing: "primary,7-9,0.5\n")
        #expect(classesOnly.zoneFactors.isEmpty && classesOnly.laneFactor(.narrow, hourOfWeek: 8) == 1)
        #expect(!classesOnly.text.contains("lanes:") && !classesOnly.text.contains("zone:"))
    }

    /// Each kind of bad line is reported with its line number and field.
    @Test(arguments: [
        ("*,7,0.5\nprimary,7\n", SpeedProfileError.wrongFieldCount(line: 2, count: 2)),
        ("\n\nboulevard,7,0.5", .invalidField(line: 3, field: "road_class", value: "boulevard",
                                               reason: "is not a road class (e.g. primary, residential, *), lanes:<class> or zone:<id>")),
        ("lanes:tiny,*,0.5", .invalidField(line: 1, field: "road_class", value: "lanes:tiny",
                                           reason: "is not a lane class (lanes:narrow, lanes:wide, lanes:untagged)")),
        ("zone:,*,0.5", .invalidField(line: 1, field: "road_class", value: "zone:", reason: "names no zone (write zone:<id>)")),
        ("zone:161,*,2.5", .invalidField(line: 1, field: "factor", value: "2.5", reason: "is not a number in (0, 2]")),
        ("primary,170,0.5", .invalidField(line: 1, field: "hour_of_week", value: "170",
                                          reason: "is not an hour or range a-b within 0-167, or *")),
        ("primary,9-7,0.5", .invalidField(line: 1, field: "hour_of_week", value: "9-7",
                                          reason: "is not an hour or range a-b within 0-167, or *")),
        ("# c\nprimary,7,0", .invalidField(line: 2, field: "factor", value: "0", reason: "is not a number in (0, 2]")),
    ])
    func namesTheBadLineAndField(text: String, expected: SpeedProfileError) {
        #expect(throws: expected) { try SpeedProfile(parsing: text) }
    }

    /// The dense-city defaults make weekday rush hour slower than the night, and weekends lighter.
    @Test func rushHourIsSlowerThanNight() {
        let profile = SpeedProfile.denseCity
        let tuesday = 24
        #expect(profile.factor(.primary, hourOfWeek: tuesday + 8) < profile.factor(.primary, hourOfWeek: tuesday + 3))
        #expect(profile.factor(.primary, hourOfWeek: tuesday + 17) < profile.factor(.primary, hourOfWeek: tuesday + 12))
        #expect(profile.factor(.residential, hourOfWeek: tuesday + 8) > profile.factor(.primary, hourOfWeek: tuesday + 8))
        #expect(profile.factor(.primary, hourOfWeek: 5 * 24 + 8) == 1)
    }

    /// Hour 0 is Monday midnight in the city's zone; 167 is Sunday 23:00.
    @Test func hourOfWeekStartsMondayInTheLocalZone() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let mondayMorningUTC = Date(timeIntervalSince1970: 1_795_392_000 + 8 * 3600 + 1800) // 2026-11-23 08:30Z
        #expect(SpeedProfile.hourOfWeek(mondayMorningUTC, in: TimeZone(identifier: "UTC")!) == 8)
        #expect(SpeedProfile.hourOfWeek(mondayMorningUTC, in: newYork) == 3)
        #expect(SpeedProfile.hourOfWeek(mondayMorningUTC.addingTimeInterval(-9 * 3600), in: .init(identifier: "UTC")!) == 167)
    }

    /// Free-flow durations are divided by the class factor of the hour.
    @Test func profiledSpeedsScaleFreeFlowTimes() {
        let graph = TestGraphs.grid(5, 5)
        var profile = SpeedProfile()
        profile.setFactor(0.5, for: .primary, hourOfWeek: 10)
        let durations = ProfiledEdgeSpeeds(graph: graph, profile: profile).edgeDurations(hourOfWeek: 10)
        for edge in 0..<graph.edgeCount {
            let expected = graph.edgeRoadClass[edge] == .primary ? graph.edgeDurationMs[edge] * 2 : graph.edgeDurationMs[edge]
            #expect(durations[edge] == expected)
        }
    }
}

@Suite(.timeLimit(.minutes(20))) struct EdgeSpeedSourceTests {
    /// Hours with identical factors share a key, so the router customizes the dense-city week a few times only.
    @Test func identicalHoursShareOneKey() {
        let speeds = ProfiledEdgeSpeeds(graph: TestGraphs.grid(5, 5))
        let keys = Set((0..<SpeedProfile.hoursPerWeek).map { speeds.durationsKey(hourOfWeek: $0) })
        #expect(keys.count <= 10)
        #expect(speeds.durationsKey(hourOfWeek: 24 + 8) == 7, "Tuesday 08:00 shares Monday 07:00's rush-hour factors")
        #expect(speeds.edgeDurations(hourOfWeek: 24 + 8) == speeds.edgeDurations(hourOfWeek: 8))
        #expect(speeds.durationsKey(hourOfWeek: 8) != speeds.durationsKey(hourOfWeek: 3))
    }
}
