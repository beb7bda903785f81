import Testing
@testable import Routing

/// The profiles' tag rules, table by table, without building a graph.
@Suite(.timeLimit(.minutes(20))) struct ProfileTests {
    static let car = CarProfile()
    static let foot = FootProfile()

    /// (tags, forward allowed, backward allowed) for the car.
    @Test(arguments: [
        (["highway": "residential"], true, true),
        (["highway": "residential", "oneway": "yes"], true, false),
        (["highway": "residential", "oneway": "true"], true, false),
        (["highway": "residential", "oneway": "1"], true, false),
        (["highway": "residential", "oneway": "-1"], false, true),
        (["highway": "residential", "oneway": "reverse"], false, true),
        (["highway": "motorway"], true, false),
        (["highway": "motorway_link"], true, false),
        (["highway": "motorway", "oneway": "no"], true, true),
        (["highway": "primary", "junction": "roundabout"], true, false),
        (["highway": "primary", "junction": "circular"], true, false),
        (["highway": "tertiary", "access": "no", "motorcar": "yes"], true, true),
        (["highway": "tertiary", "access": "no", "motor_vehicle": "destination"], true, true),
    ] as [([String: String], Bool, Bool)])
    func carDirections(tags: [String: String], forward: Bool, backward: Bool) throws {
        let traversal = try #require(Self.car.traversal(of: tags))
        #expect((traversal.forwardSpeedKmh != nil) == forward)
        #expect((traversal.backwardSpeedKmh != nil) == backward)
    }

    /// `lanes` counts both directions of a two-way road and one of a one-way
    /// road; at most two lanes per direction is narrow; no tag is untagged.
    @Test(arguments: [
        (["highway": "residential", "oneway": "yes", "lanes": "2"], LaneClass.narrow, LaneClass.untagged),
        (["highway": "primary", "oneway": "yes", "lanes": "3"], .wide, .untagged),
        (["highway": "secondary", "lanes": "4"], .narrow, .narrow),
        (["highway": "secondary", "lanes": "5"], .wide, .wide),
        (["highway": "primary", "lanes": "5", "lanes:forward": "3", "lanes:backward": "2"], .wide, .narrow),
        (["highway": "residential", "lanes": "2;3"], .narrow, .narrow),
        (["highway": "residential", "lanes": "many"], .untagged, .untagged),
        (["highway": "residential"], .untagged, .untagged),
    ] as [([String: String], LaneClass, LaneClass)])
    func carLaneClasses(tags: [String: String], forward: LaneClass, backward: LaneClass) throws {
        let traversal = try #require(Self.car.traversal(of: tags))
        #expect(traversal.forwardLanes == forward)
        if traversal.backwardSpeedKmh != nil { #expect(traversal.backwardLanes == backward) }
    }

    @Test(arguments: [
        ["highway": "footway"], ["highway": "cycleway"], ["highway": "track"], ["highway": "construction"],
        ["highway": "residential", "access": "private"], ["highway": "residential", "access": "no"],
        ["highway": "service", "motor_vehicle": "no"], ["highway": "service", "access": "yes", "motorcar": "private"],
        ["highway": "pedestrian"], ["highway": "residential", "area": "yes"],
        ["highway": "residential", "oneway": "reversible"], ["building": "yes"],
    ])
    func carLeavesOut(tags: [String: String]) {
        #expect(Self.car.traversal(of: tags) == nil)
    }

    @Test func carMapsEveryRoutableClass() {
        #expect(Self.car.traversal(of: ["highway": "motorway_link"])?.roadClass == .motorwayLink)
        #expect(Self.car.traversal(of: ["highway": "living_street"])?.roadClass == .livingStreet)
        #expect(Self.car.traversal(of: ["highway": "service"])?.roadClass == .service)
        #expect(CarProfile.defaultSpeedsKmh.count == 14)
    }

    @Test func carDrivesAtAShareOfMaxspeedAndDefaultsWithoutIt() {
        #expect(Self.car.traversal(of: ["highway": "residential"])?.forwardSpeedKmh == 25)
        #expect(Self.car.traversal(of: ["highway": "residential", "maxspeed": "50"])?.forwardSpeedKmh == 40)
        #expect(Self.car.traversal(of: ["highway": "residential", "maxspeed": "none"])?.forwardSpeedKmh == 25)
        let directional = Self.car.traversal(of: ["highway": "primary", "maxspeed": "50", "maxspeed:backward": "30"])
        #expect(directional?.forwardSpeedKmh == 40)
        #expect(directional?.backwardSpeedKmh == 24)
    }

    /// Raw `maxspeed` values and the limit they mean, in km/h (nil: class default).
    @Test(arguments: [
        ("50", 50.0), ("50 km/h", 50), ("50kmh", 50), ("30 mph", 48.28032), ("25mph", 40.2336),
        ("10 knots", 18.52), ("DE:urban", 50), ("de:rural", 100), ("RU:urban", 60), ("RU:living_street", 20),
        ("FR:motorway", 130), ("XX:urban", 50), ("DE:zone30", 30), ("DE:zone:20", 20), ("walk", 7),
        ("50;30", 50), ("none", nil), ("signals", nil), ("fast", nil), ("0", nil),
    ] as [(String, Double?)])
    func maxspeedValues(raw: String, kmh: Double?) {
        let parsed = MaxSpeed.kilometresPerHour(raw)
        if let kmh {
            #expect(abs((parsed ?? -1) - kmh) < 1e-9)
        } else {
            #expect(parsed == nil)
        }
    }

    @Test func footWalksFootwaysAndStreetsButNotMotorways() {
        for highway in ["footway", "path", "pedestrian", "steps", "living_street", "residential", "service",
                        "tertiary", "secondary", "primary", "track", "cycleway"] {
            #expect(Self.foot.traversal(of: ["highway": highway]) != nil, "\(highway)")
        }
        for tags in [["highway": "motorway"], ["highway": "trunk"], ["highway": "footway", "foot": "no"],
                     ["highway": "cycleway", "foot": "no"], ["highway": "residential", "access": "private"]] {
            #expect(Self.foot.traversal(of: tags) == nil, "\(tags)")
        }
        #expect(Self.foot.traversal(of: ["highway": "footway", "access": "no", "foot": "yes"]) != nil)
    }

    @Test func footIgnoresCarOnewayButNotOnewayFoot() {
        let street = Self.foot.traversal(of: ["highway": "residential", "oneway": "yes"])
        #expect(street?.backwardSpeedKmh == FootProfile.walkingSpeedKmh)
        let oneWayPath = Self.foot.traversal(of: ["highway": "footway", "oneway:foot": "yes"])
        #expect(oneWayPath?.forwardSpeedKmh == FootProfile.walkingSpeedKmh)
        #expect(oneWayPath?.backwardSpeedKmh == nil)
        #expect(Self.foot.traversal(of: ["highway": "steps"])?.forwardSpeedKmh == FootProfile.stepsSpeedKmh)
    }

    @Test func profilesAreFoundByName() {
        #expect(RoutingProfiles.named("car")?.name == "car")
        #expect(RoutingProfiles.named("foot")?.name == "foot")
        #expect(RoutingProfiles.named("bicycle") == nil)
    }
}
