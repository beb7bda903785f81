import GeoKit
import Testing

@Suite(.timeLimit(.minutes(20))) struct GeometryTests {
    let square = [Coordinate(longitude: 0, latitude: 0), Coordinate(longitude: 1, latitude: 0),
                  Coordinate(longitude: 1, latitude: 1), Coordinate(longitude: 0, latitude: 1),
                  Coordinate(longitude: 0, latitude: 0)]

    @Test func validPolygonHasAreaAndBounds() throws {
        let polygon = try Geometry.polygon(exterior: square)
        #expect(polygon.validity.isValid)
        #expect(polygon.area == 1)
        #expect(polygon.boundingBox == BoundingBox(minX: 0, minY: 0, maxX: 1, maxY: 1))
        #expect(polygon.typeName == "Polygon")
    }

    /// GEOS names the problem and where it is.
    @Test func selfIntersectionIsReportedWithItsLocation() throws {
        let bowTie = [Coordinate(longitude: 0, latitude: 0), Coordinate(longitude: 1, latitude: 1),
                      Coordinate(longitude: 1, latitude: 0), Coordinate(longitude: 0, latitude: 1),
                      Coordinate(longitude: 0, latitude: 0)]
        let validity = try Geometry.polygon(exterior: bowTie).validity
        #expect(!validity.isValid)
        #expect(validity.reason == "Self-intersection")
        #expect(validity.location == Coordinate(longitude: 0.5, latitude: 0.5))
    }

    /// A prepared polygon covers its boundary, unlike `containsProperly`.
    @Test func preparedCoversIncludesTheBorder() throws {
        let prepared = try PreparedGeometry(try Geometry.polygon(exterior: square))
        #expect(prepared.covers(Coordinate(longitude: 1, latitude: 0.5)))
        #expect(prepared.covers(Coordinate(longitude: 0, latitude: 0)))
        #expect(prepared.covers(Coordinate(longitude: 0.5, latitude: 0.5)))
        #expect(!prepared.covers(Coordinate(longitude: 1.000001, latitude: 0.5)))
        #expect(!prepared.containsProperly(try Geometry.point(Coordinate(longitude: 1, latitude: 0.5))))
    }

    @Test func ringsRoundTrip() throws {
        let hole = [Coordinate(longitude: 0.2, latitude: 0.2), Coordinate(longitude: 0.2, latitude: 0.4),
                    Coordinate(longitude: 0.4, latitude: 0.4), Coordinate(longitude: 0.2, latitude: 0.2)]
        let polygon = try Geometry.polygon(exterior: square, holes: [hole])
        #expect(polygon.polygonRings == [square, hole])
    }

    /// The local projection measures metres: one degree of latitude is about 111 km.
    @Test func localProjectionMeasuresMetres() throws {
        let projection = try LocalProjection(center: Coordinate(longitude: -73.98, latitude: 40.75))
        let points = projection.project([Coordinate(longitude: -73.98, latitude: 40.75),
                                         Coordinate(longitude: -73.98, latitude: 41.75)])
        #expect(abs(points[0].longitude) < 1e-6 && abs(points[0].latitude) < 1e-6)
        #expect(abs(points[1].latitude - 111_050) < 200)
        let haversine = Coordinate(longitude: -73.98, latitude: 40.75)
            .haversineDistance(to: Coordinate(longitude: -73.98, latitude: 41.75))
        #expect(abs(haversine - points[1].latitude) / haversine < 0.005)
    }

    /// An offset of metres east and north lands that far away, in that direction.
    @Test func anOffsetMovesByTheMetresGiven() {
        let start = Coordinate(longitude: -73.98, latitude: 40.75)
        let east = start.offset(eastMetres: 30, northMetres: 0), north = start.offset(eastMetres: 0, northMetres: -40)
        #expect(abs(start.haversineDistance(to: east) - 30) < 0.01 && east.longitude > start.longitude)
        #expect(abs(start.haversineDistance(to: north) - 40) < 0.01 && north.latitude < start.latitude)
        #expect(abs(start.haversineDistance(to: start.offset(eastMetres: 30, northMetres: -40)) - 50) < 0.01)
    }

    @Test func geometriesWorkFromManyThreads() async throws {
        let prepared = try PreparedGeometry(try Geometry.polygon(exterior: square))
        let hits = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    (0..<2_000).filter { step in
                        prepared.covers(Coordinate(longitude: Double((task * 2_000 + step) % 200) / 100, latitude: 0.5))
                    }.count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(hits == 8 * 2_000 / 2 + 8 * 10)
    }
}

/// How a position is written in messages and errors.
@Suite(.timeLimit(.minutes(20))) struct CoordinateTextTests {
    @Test func aPositionIsWrittenToSevenDecimals() {
        #expect(Coordinate(longitude: 7.415, latitude: 43.705000000000005).description == "7.415,43.705")
        #expect(Coordinate(longitude: -73.98551234567, latitude: 40.7580000001).description == "-73.9855123,40.758")
        #expect(Coordinate(longitude: -0.00000001, latitude: 0).description == "0.0,0.0")
    }
}
