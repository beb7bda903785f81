/// Reads the OSM access hierarchy (`access` < `vehicle` < `motor_vehicle` <
/// `motorcar`, or `access` < `foot`): the most specific tag present decides,
/// so `access=no` + `motorcar=yes` lets cars through.
struct AccessTags {
    /// Keys from the most general to the most specific.
    var hierarchy: [String]
    /// Values that close the way to the traveller.
    var denied: Set<String>

    /// True unless the most specific access tag present has a denied value.
    func allows(_ tags: [String: String]) -> Bool {
        for key in hierarchy.reversed() {
            if let value = tags[key] { return !denied.contains(value) }
        }
        return true
    }
}
