import Foundation

extension LearnedEdgeSpeeds {
    /// The learned weekly speeds in the speed-profile format
    /// (docs/speed-profile.md), so that they can be read, compared with a
    /// fitted profile, or shipped with a graph: per road class and hour the
    /// free-flow-time-weighted geometric mean of its edges' factors over the
    /// hour's four quarter-hours (the profile's where nothing was learned),
    /// then per lane class and per area zone what is left of their edges'
    /// factors over the whole week. Factors are rounded to hundredths; the
    /// trip overhead is `tripOverheadSeconds`; the minor-signal delay is 0,
    /// since learned times include the waits at signals.
    /// - Parameter progress: called with each day (0 = Monday) as it starts.
    public func speedProfile(tripOverheadSeconds: Double, progress: (Int) -> Void = { _ in }) -> SpeedProfile {
        let edgeCount = base.freeFlowMs.count
        let weights = base.freeFlowMs.map { $0 == unreachableMs ? 0 : Double($0) }
        var profile = SpeedProfile()
        profile.tripOverheadSeconds = tripOverheadSeconds
        var residualSums = (lanes: [Double](repeating: 0, count: LaneClass.allCases.count),
                            zones: [Double](repeating: 0, count: base.zones?.zoneIDs.count ?? 0))
        var residualWeights = residualSums
        for hour in 0..<SpeedProfile.hoursPerWeek {
            if hour % 24 == 0 { progress(hour / 24) }
            var meanLogRatio = [Double](repeating: 0, count: edgeCount)
            for quarter in 0..<WeekSlot.perHour {
                let ratios = weeklyLogRatios(slot: hour * WeekSlot.perHour + quarter)
                for edge in 0..<edgeCount { meanLogRatio[edge] += ratios[edge] / Double(WeekSlot.perHour) }
            }
            var classSums = [Double](repeating: 0, count: RoadClass.allCases.count), classWeights = classSums
            for edge in 0..<edgeCount where weights[edge] > 0 {
                let roadClass = Int(base.roadClass[edge].rawValue)
                classSums[roadClass] += weights[edge] * meanLogRatio[edge]
                classWeights[roadClass] += weights[edge]
            }
            let classMean = zip(classSums, classWeights).map { $1 > 0 ? $0 / $1 : 0 }
            for roadClass in RoadClass.allCases {
                profile.setFactor(Self.factor(logRatio: classMean[Int(roadClass.rawValue)]), for: roadClass, hourOfWeek: hour)
            }
            for edge in 0..<edgeCount where weights[edge] > 0 {
                let residual = meanLogRatio[edge] - classMean[Int(base.roadClass[edge].rawValue)]
                let lane = Int(base.laneClass[edge].rawValue)
                residualSums.lanes[lane] += weights[edge] * residual
                residualWeights.lanes[lane] += weights[edge]
                if let zone = base.zones?.edgeZone[edge], zone != EdgeZones.noZone {
                    residualSums.zones[Int(zone)] += weights[edge] * residual
                    residualWeights.zones[Int(zone)] += weights[edge]
                }
            }
        }
        for laneClass in LaneClass.allCases {
            let index = Int(laneClass.rawValue)
            guard residualWeights.lanes[index] > 0 else { continue }
            let factor = Self.factor(logRatio: residualSums.lanes[index] / residualWeights.lanes[index])
            for hour in 0..<SpeedProfile.hoursPerWeek { profile.setLaneFactor(factor, for: laneClass, hourOfWeek: hour) }
        }
        for (index, zoneID) in (base.zones?.zoneIDs ?? []).enumerated() where residualWeights.zones[index] > 0 {
            let factor = Self.factor(logRatio: residualSums.zones[index] / residualWeights.zones[index])
            guard factor != 1 else { continue }
            for hour in 0..<SpeedProfile.hoursPerWeek { profile.setZoneFactor(factor, for: zoneID, hourOfWeek: hour) }
        }
        return profile
    }

    /// The speed factor (free-flow time ÷ time) of a log time ratio, in hundredths within [0.01, 2].
    private static func factor(logRatio: Double) -> Float {
        Float(min(max((exp(-logRatio) * 100).rounded() / 100, 0.01), 2))
    }
}
