/// The speed factors calibration routes with: one relative factor per
/// ``SpeedProfileCalibration/ClassGroup``, time factors for narrow and
/// untagged streets, the minor-signal delay, and a time multiplier per area
/// zone. Hours of the week are left out: they scale every road alike, so
/// they never change a route.
struct CalibrationSetting: Hashable {
    /// Relative speed of each class group (fast roads are 1).
    var classFactors: [SpeedProfileCalibration.ClassGroup: Float]
    /// How many times longer a narrow street (``LaneClass/narrow``) takes than its class says.
    var narrowTimeFactor: Double = 1
    /// How many times longer a street without a `lanes` tag (``LaneClass/untagged``) takes.
    var untaggedTimeFactor: Double = 1
    /// Free-flow seconds added at a minor approach to a traffic signal (``SignalApproach/minor``).
    var minorSignalDelaySeconds: Double = 0
    /// How many times longer each zone's roads take, by zone slot (empty: all 1).
    var zoneMultipliers: [Double] = []

    /// The speed factor of `roadClass`.
    func classFactor(_ roadClass: RoadClass) -> Double {
        Double(classFactors[SpeedProfileCalibration.ClassGroup(roadClass)]!)
    }

    /// The speed factor of `laneClass`.
    func laneFactor(_ laneClass: LaneClass) -> Double {
        switch laneClass {
        case .narrow: Double(SpeedProfileCalibration.speedFactor(timeFactor: narrowTimeFactor))
        case .untagged: Double(SpeedProfileCalibration.speedFactor(timeFactor: untaggedTimeFactor))
        case .wide: 1
        }
    }

    /// This setting with `value` at `keyPath`.
    func with<Value>(_ keyPath: WritableKeyPath<CalibrationSetting, Value>, _ value: Value) -> CalibrationSetting {
        var setting = self
        setting[keyPath: keyPath] = value
        return setting
    }

    /// This setting's free-flow time of `edge` in seconds, minor-signal delay
    /// included, at its class and lane factors (no hour or zone factor).
    func baseSeconds(edge: Int, graph: RoadGraph) -> Double {
        let delay = graph.edgeSignalApproach[edge] == .minor ? minorSignalDelaySeconds : 0
        return (Double(graph.edgeDurationMs[edge]) / 1000 + delay)
            / (classFactor(graph.edgeRoadClass[edge]) * laneFactor(graph.edgeLaneClass[edge]))
    }

    /// A profile with these factors in every hour, zone slots named by `zoneIDs`.
    /// Class factors are divided by the largest one, which keeps them within
    /// a profile's (0, 2] and changes no route.
    func routingProfile(zoneIDs: [String]) -> SpeedProfile {
        let largest = Double(classFactors.values.max()!)
        return profile(zoneIDs: zoneIDs, zoneMultipliers: zoneMultipliers) { roadClass, _ in
            Float(classFactor(roadClass) / largest)
        }
    }

    /// A profile with this setting's lane factors and minor-signal delay,
    /// `classFactor(class, hourOfWeek)` for the road classes, and a factor
    /// for each zone slot whose time multiplier in `zoneMultipliers` is not
    /// exactly 1 (zones no trip crossed), named by `zoneIDs`.
    func profile(zoneIDs: [String], zoneMultipliers: [Double],
                 classFactor: (RoadClass, Int) -> Float) -> SpeedProfile {
        var profile = SpeedProfile()
        profile.minorSignalDelaySeconds = minorSignalDelaySeconds
        for roadClass in RoadClass.allCases {
            for hour in 0..<SpeedProfile.hoursPerWeek {
                profile.setFactor(classFactor(roadClass, hour), for: roadClass, hourOfWeek: hour)
            }
        }
        for hour in 0..<SpeedProfile.hoursPerWeek {
            for laneClass in [LaneClass.narrow, .untagged] {
                profile.setLaneFactor(Float(laneFactor(laneClass)), for: laneClass, hourOfWeek: hour)
            }
            for (slot, multiplier) in zoneMultipliers.enumerated() where multiplier != 1 {
                profile.setZoneFactor(SpeedProfileCalibration.speedFactor(timeFactor: multiplier), for: zoneIDs[slot],
                                      hourOfWeek: hour)
            }
        }
        return profile
    }
}
