import FixRecords

extension AcceptedFix {
    /// The fix as a live position of its taxi.
    public var position: TaxiPosition {
        TaxiPosition(
            taxiId: taxiId, coordinate: coordinate, time: time, speedKmh: speedKmh, heading: heading,
            zoneId: zoneId)
    }
}
