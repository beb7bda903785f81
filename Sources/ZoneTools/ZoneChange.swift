import Foundation
import Zones

/// One difference between two versions of a zone set, for `mytaxi zones diff`.
public enum ZoneChange: Sendable, Equatable {
    /// A zone only the new set has, with its area in square metres.
    case added(id: ZoneID, name: String, squareMetres: Double)
    /// A zone only the old set has, with its area in square metres.
    case removed(id: ZoneID, name: String, squareMetres: Double)
    /// A zone whose name changed.
    case renamed(id: ZoneID, from: String, to: String)
    /// A zone whose area changed: its size before and after, and how much
    /// ground changed hands (the symmetric difference), in square metres.
    case reshaped(id: ZoneID, name: String, oldSquareMetres: Double, newSquareMetres: Double, redrawnSquareMetres: Double)

    /// The zone concerned.
    public var id: ZoneID {
        switch self {
        case .added(let id, _, _), .removed(let id, _, _), .renamed(let id, _, _), .reshaped(let id, _, _, _, _): id
        }
    }

    /// One line of text, e.g. `reshaped 12 "Battery Park": 10.00 ha → 10.50 ha (+5000.0 m², +5.0 %), 5200.0 m² redrawn`.
    public var text: String {
        switch self {
        case .added(let id, let name, let area): "added \(id) \"\(name)\": \(AreaMeasure.text(area))"
        case .removed(let id, let name, let area): "removed \(id) \"\(name)\": \(AreaMeasure.text(area))"
        case .renamed(let id, let from, let to): "renamed \(id): \"\(from)\" → \"\(to)\""
        case .reshaped(let id, let name, let old, let new, let redrawn):
            "reshaped \(id) \"\(name)\": \(AreaMeasure.text(old)) → \(AreaMeasure.text(new)) "
                + "(\(ZoneChange.signed(new - old)) m², \(ZoneChange.percent(new - old, of: old))), "
                + "\(AreaMeasure.text(redrawn)) redrawn"
        }
    }

    private static func signed(_ value: Double) -> String {
        String(format: "%+.1f", value)
    }

    private static func percent(_ change: Double, of whole: Double) -> String {
        whole > 0 ? String(format: "%+.1f %%", change / whole * 100) : "new"
    }
}
