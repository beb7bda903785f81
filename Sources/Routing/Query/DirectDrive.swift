/// Driving straight along one road between a source and a target candidate,
/// without entering the graph search (``RoadRouter/directDrive(from:to:metric:)``).
struct DirectDrive: Sendable, Equatable {
    /// Index of the source candidate used.
    var sourceCandidate: Int
    /// Index of the target candidate used.
    var targetCandidate: Int
    /// The edge driven.
    var edge: Int
    /// The fraction of it driven.
    var share: Double
    /// Travel time in ms.
    var durationMs: UInt32
    /// Length in metres.
    var lengthMetres: Float

    /// As a table entry.
    var cell: TableCell { TableCell(durationMs: durationMs, lengthMetres: lengthMetres) }
}
