// Whoever imports Zones uses its ids, and so the members they share (swift-nio's
// umbrella module re-exports NIOCore the same way).
@_exported import Identifiers

/// The stable identifier of a zone, as written in the zone file.
///
/// Ids order zones for the border rule (see ``BorderRule``): ids that are
/// whole numbers compare as numbers and come before all other ids; other ids
/// compare by their Unicode scalars. `"9" < "10" < "abc" < "abd"`.
public struct ZoneID: TextIdentifier {
    /// The id as text; numeric ids are written without a fraction.
    public let text: String
    private let number: Int64?

    public init(_ text: String) {
        self.text = text
        self.number = Int64(text)
    }

    public static func < (lhs: ZoneID, rhs: ZoneID) -> Bool {
        switch (lhs.number, rhs.number) {
        case let (left?, right?): return left != right ? left < right : lhs.text < rhs.text
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return lhs.text.unicodeScalars.lexicographicallyPrecedes(rhs.text.unicodeScalars)
        }
    }
}
