import Foundation

extension SpeedProfileCalibration {
    /// Runs the calibration steps on a subset of the trips. Route sets depend
    /// only on the speed setting, not on the subset, so they are computed once
    /// and shared by the fit on all trips and the held-out fit on half.
    struct Fitter {
        /// Measured duration of each trip, seconds.
        let measured: [Double]
        /// Hour of the week each trip left in.
        let hours: [Int]
        /// Routes every trip under a setting.
        let route: (CalibrationSetting) -> TripDrives
        private var routeSets: [CalibrationSetting: TripDrives] = [:]

        /// Prepares to fit `trips`; `route` routes all of them under one setting.
        init(trips: [MeasuredTrip], timeZone: TimeZone, route: @escaping (CalibrationSetting) -> TripDrives) {
            measured = trips.map(\.durationSeconds)
            hours = trips.map { SpeedProfile.hourOfWeek($0.depart, in: timeZone) }
            self.route = route
        }

        /// What one fit found.
        struct Fit {
            /// The class, lane and zone factors.
            var setting: CalibrationSetting
            /// Overhead, hour and zone multipliers over the final routes.
            var model: TripTimeModel
            /// The zone penalty chosen (nil without zones).
            var zonePenalty: Double?

            /// The profile: factor(class, hour) = class factor ÷ hour multiplier; lane
            /// and zone factors the inverse of their time factors; zones no trip
            /// crossed (multiplier exactly 1) left out.
            func profile(zoneIDs: [String]) -> SpeedProfile {
                var profile = setting.profile(zoneIDs: zoneIDs, zoneMultipliers: model.zoneMultipliers) { roadClass, hour in
                    profileFactor(setting.classFactor(roadClass) / model.hourMultipliers[bucket(hourOfWeek: hour)])
                }
                profile.tripOverheadSeconds = model.overhead
                return profile
            }
        }

        /// The routes of every trip under `setting` (computed on first use).
        mutating func drives(_ setting: CalibrationSetting) -> TripDrives {
            if let known = routeSets[setting] { return known }
            let drives = route(setting)
            routeSets[setting] = drives
            return drives
        }

        /// Fits class, narrow-street and zone factors with hours and overhead to `trips` (indices).
        ///
        /// Grid searches first, without zones: the class groups (every pair),
        /// then the narrow and untagged lane factors. With zones: the penalty
        /// by cross-validation, then rounds of coordinate descent (the lane
        /// grids and the neighbouring class factors, each re-routed on the
        /// current zone factors with zones refitted) until nothing changes,
        /// then the re-route-and-refit passes.
        mutating func fit(using trips: [Int], progress: (String) -> Void) -> Fit {
            var best: Fit?
            var penalty: Double?
            func consider(_ setting: CalibrationSetting) {
                let model = TripTimeModel.fit(drives: drives(setting), measured: measured, hours: hours, trips: trips,
                                              overheads: overheads, zonePenalty: penalty)
                if model.error < best?.model.error ?? .infinity { best = Fit(setting: setting, model: model, zonePenalty: penalty) }
            }
            func searchStreetFactors() {
                for narrow in laneTimeFactors { consider(best!.setting.with(\.narrowTimeFactor, narrow)) }
                for untagged in laneTimeFactors { consider(best!.setting.with(\.untaggedTimeFactor, untagged)) }
                for delay in minorSignalDelays { consider(best!.setting.with(\.minorSignalDelaySeconds, delay)) }
            }
            func searchClasses(_ arterials: [Float], _ locals: [Float]) {
                for arterial in arterials {
                    for local in locals { consider(best!.setting.with(\.classFactors, [.fast: 1, .arterial: arterial, .local: local])) }
                }
            }
            func report(_ step: String) {
                let setting = best!.setting
                progress(String(format: "%@: arterials x%.2f, local streets x%.2f the speed of fast roads, "
                                + "narrow streets x%.2f and untagged x%.2f the time, minor signal approaches +%.0f s; "
                                + "RMSLE %.4f on the trips fitted",
                                step, setting.classFactor(.primary), setting.classFactor(.residential),
                                setting.narrowTimeFactor, setting.untaggedTimeFactor, setting.minorSignalDelaySeconds,
                                best!.model.error.squareRoot()))
            }

            let routeSets = relativeFactors.count * relativeFactors.count + 2 * laneTimeFactors.count + minorSignalDelays.count
            progress("searching road-class, lane and signal factors (\(routeSets) route sets)")
            consider(CalibrationSetting(classFactors: [.fast: 1, .arterial: 1, .local: 1]))
            searchClasses(relativeFactors, relativeFactors)
            searchStreetFactors()
            report("without zones")
            let zoneCount = drives(best!.setting).zoneCount
            guard zoneCount > 0 else { return best! }

            penalty = choosePenalty(drives: drives(best!.setting), trips: trips, overhead: best!.model.overhead)
            progress("zone penalty \(penalty!) (chosen by \(crossValidationFolds)-fold cross-validation)")
            let start = best!.setting
            best = nil
            consider(start)
            for round in 1...jointRounds {
                let before = best!.setting
                best!.setting.zoneMultipliers = best!.model.zoneMultipliers
                consider(best!.setting)
                searchStreetFactors()
                searchClasses(neighbours(of: before.classFactors[.arterial]!), neighbours(of: before.classFactors[.local]!))
                report("with \(zoneCount) zone factors, round \(round)")
                var unchanged = best!.setting
                unchanged.zoneMultipliers = before.zoneMultipliers
                if unchanged == before { break }
            }
            var fit = best!
            for pass in 1...reroutePasses {
                fit.setting.zoneMultipliers = fit.model.zoneMultipliers
                fit.model = TripTimeModel.fit(drives: drives(fit.setting), measured: measured, hours: hours, trips: trips,
                                              overheads: overheads, zonePenalty: penalty)
                progress(String(format: "re-routed on the fitted zone factors and refitted (pass %d of %d): RMSLE %.4f",
                                pass, reroutePasses, fit.model.error.squareRoot()))
            }
            return fit
        }

        /// `value` and the grid values on either side of it.
        private func neighbours(of value: Float) -> [Float] {
            guard let index = relativeFactors.firstIndex(of: value) else { return [value] }
            return Array(relativeFactors[max(index - 1, 0)...min(index + 1, relativeFactors.count - 1)])
        }

        /// The zone penalty with the lowest cross-validated squared log error on
        /// `trips`: each fold scored by a model fitted on the others (overhead held).
        func choosePenalty(drives: TripDrives, trips: [Int], overhead: Double) -> Double {
            let folds = crossValidationFolds
            var best: (penalty: Double, error: Double)?
            for penalty in zonePenalties {
                var error = 0.0
                for fold in 0..<folds {
                    let training = trips.enumerated().filter { $0.offset % folds != fold }.map(\.element)
                    let testing = trips.enumerated().filter { $0.offset % folds == fold }.map(\.element)
                    let model = TripTimeModel.fit(drives: drives, measured: measured, hours: hours, trips: training,
                                                  overheads: [overhead], zonePenalty: penalty)
                    error += model.squaredLogError(trips: testing, drives: drives, measured: measured, hours: hours)
                }
                if error < best?.error ?? .infinity { best = (penalty, error) }
            }
            return best!.penalty
        }
    }
}
