/// How to read a zone file: which properties hold the id and the name, and
/// how much overlap between neighbours is tolerated.
public struct ZoneFileOptions: Sendable, Equatable {
    /// The property holding the id; nil means the feature's `id` member,
    /// then `properties.id`.
    public var idProperty: String?
    /// The property holding the name.
    public var nameProperty: String
    /// Overlap between two zones up to this area (square metres) is accepted
    /// as digitising noise; real data often has such slivers along shared
    /// borders (the NYC taxi zones have 134, the largest 0.5 m²).
    public var overlapToleranceSquareMetres: Double

    public init(idProperty: String? = nil, nameProperty: String = "name",
                overlapToleranceSquareMetres: Double = 10) {
        self.idProperty = idProperty
        self.nameProperty = nameProperty
        self.overlapToleranceSquareMetres = overlapToleranceSquareMetres
    }
}
