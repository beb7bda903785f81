import Foundation

/// One zone set a planner uploaded (SPEC Z-files published through the
/// API): its number, who uploaded it and when, and whether it is the
/// active one. The GeoJSON itself is read apart (``ZoneSetStore/geoJSON(of:)``).
public struct ZoneSetVersion: Sendable, Equatable {
    /// 1, 2, ... in upload order.
    public let version: Int
    /// The planner's username.
    public let uploadedBy: String
    /// When it was uploaded.
    public let uploadedAt: Date
    /// How many zones it holds.
    public let zoneCount: Int
    /// The size of its GeoJSON, bytes.
    public let bytes: Int
    /// What the planner said of it, if anything.
    public let comment: String?
    /// Who made it the active version and when; nil when it is not the active one.
    public let activation: ZoneSetActivation?

    /// A version with these fields.
    public init(
        version: Int, uploadedBy: String, uploadedAt: Date, zoneCount: Int, bytes: Int, comment: String?,
        activation: ZoneSetActivation?
    ) {
        self.version = version
        self.uploadedBy = uploadedBy
        self.uploadedAt = uploadedAt
        self.zoneCount = zoneCount
        self.bytes = bytes
        self.comment = comment
        self.activation = activation
    }
}

/// Who made a zone set version the active one, and when.
public struct ZoneSetActivation: Sendable, Equatable {
    /// The planner's username.
    public let by: String
    /// When.
    public let at: Date

    /// `by` activated it `at`.
    public init(by: String, at: Date) {
        self.by = by
        self.at = at
    }
}
