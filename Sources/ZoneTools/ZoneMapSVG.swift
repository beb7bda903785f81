import Foundation
import GeoKit
import Zones

/// `mytaxi zones render`: a picture of a zone set as SVG, each zone filled
/// in a colour none of its neighbours has, with its id (and name) at a point
/// inside it, optionally over the road graph.
///
/// Drawn on a local projection in metres centred on the zones, north up, so
/// that shapes and distances look as on a map.
public struct ZoneMapSVG: Sendable {
    /// A road to draw beneath the zones: from one position to another.
    public typealias RoadSegment = (from: Coordinate, to: Coordinate)

    /// Fill colours, told apart at a glance; neighbours never share one
    /// unless a zone has as many neighbours of every colour.
    static let palette = ["#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5"]

    /// The SVG document.
    public let text: String

    /// Draws `zoneSet` `width` pixels wide (the height follows the map),
    /// with `roads` beneath the zones; names below the ids when `labels`.
    public init(zoneSet: ZoneSet, roads: [RoadSegment] = [], labels: Bool, width: Double = 1200) throws {
        guard let center = zoneSet.boundingBox?.center else {
            throw GeometryError.invalidCoordinates("no zones to draw")
        }
        let projection = try LocalProjection(center: center)
        let projected = try zoneSet.zones.map { try projection.project($0.geometry) }
        let box = projected.compactMap(\.boundingBox).reduce(projected.first?.boundingBox ?? BoundingBox(minX: 0, minY: 0, maxX: 1, maxY: 1)) {
            $0.union($1)
        }
        let margin = 20.0
        let scale = (width - 2 * margin) / max(box.width, 1)
        let height = (box.height * scale + 2 * margin).rounded(.up)
        func point(_ coordinate: Coordinate) -> String {
            String(format: "%.1f %.1f", (coordinate.longitude - box.minX) * scale + margin,
                   (box.maxY - coordinate.latitude) * scale + margin)
        }

        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\">\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        if !roads.isEmpty {
            let ends = projection.project(roads.flatMap { [$0.from, $0.to] })
            var path = ""
            for index in stride(from: 0, to: ends.count, by: 2) {
                path += "M\(point(ends[index]))L\(point(ends[index + 1]))"
            }
            svg += "<path d=\"\(path)\" fill=\"none\" stroke=\"#9a9a9a\" stroke-width=\"0.6\"/>\n"
        }
        let colours = try Self.colours(zoneSet)
        for (zone, geometry) in zip(zoneSet.zones, projected) {
            var path = ""
            for ring in geometry.polygonRings {
                path += "M" + ring.dropLast().map(point).joined(separator: "L") + "Z"
            }
            svg += "<path d=\"\(path)\" fill=\"\(colours[zone.id] ?? Self.palette[0])\" fill-opacity=\"\(roads.isEmpty ? "0.9" : "0.55")\" "
                + "fill-rule=\"evenodd\" stroke=\"#333333\" stroke-width=\"0.8\"><title>\(Self.escaped("\(zone.id.text) \(zone.name)"))</title></path>\n"
        }
        for (zone, geometry) in zip(zoneSet.zones, projected) {
            guard let anchor = geometry.pointOnSurface else { continue }
            let halfWidth = max(Self.textWidth(zone.id.text, fontSize: 11), labels ? Self.textWidth(zone.name, fontSize: 9) : 0) / 2
            let x = min(max((anchor.longitude - box.minX) * scale + margin, halfWidth + 2), width - halfWidth - 2)
            let y = min(max((box.maxY - anchor.latitude) * scale + margin, 11), height - (labels ? 14 : 3))
            svg += "<text transform=\"translate(\(String(format: "%.1f,%.1f", x, y)))\" text-anchor=\"middle\" "
                + "font-size=\"11\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">"
                + "<tspan x=\"0\" font-weight=\"bold\">\(Self.escaped(zone.id.text))</tspan>"
            if labels {
                svg += "<tspan x=\"0\" dy=\"12\" font-size=\"9\">\(Self.escaped(zone.name))</tspan>"
            }
            svg += "</text>\n"
        }
        text = svg + "</svg>"
    }

    /// About how wide `text` is at `fontSize` in a sans-serif face (an
    /// average glyph is a little over half the size wide), to keep a label
    /// whole inside the picture near its edges.
    public static func textWidth(_ text: String, fontSize: Double) -> Double {
        Double(text.count) * fontSize * 0.6
    }

    /// A colour per zone, in id order, each the first of the palette that no
    /// neighbour already has (greedy colouring of the neighbour graph).
    static func colours(_ zoneSet: ZoneSet) throws -> [ZoneID: String] {
        let neighbours = try ZoneNeighbours(zoneSet: zoneSet)
        var colours: [ZoneID: String] = [:]
        for zone in zoneSet.zones {
            let taken = Set(neighbours[zone.id].compactMap { colours[$0.id] })
            colours[zone.id] = palette.first { !taken.contains($0) } ?? palette[colours.count % palette.count]
        }
        return colours
    }

    /// Text safe inside SVG elements and attributes.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
