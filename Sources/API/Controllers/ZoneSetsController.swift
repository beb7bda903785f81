import FixRecords
import Foundation
import Hummingbird
import Logging
import ServiceClock
import Storage
import Zones

/// `/v1/zone-sets`: planners publish zone files to the service. An upload
/// is validated with the zone engine's own rules (every problem listed,
/// nothing stored when one is found) and kept as a new version; one
/// version is active: activating one puts it in force in the running
/// service at once (``ZoneSwitch``), and `mytaxi serve` starts on it in
/// place of `--zones`.
struct ZoneSetsController: Sendable {
    let store: any ZoneSetStore
    let zoneSwitch: ZoneSwitch?
    let clock: any ServiceClock
    /// The last uploads as loaded, so that activating one does not load it again.
    let recent = RecentZoneSets()

    /// Who may publish zones.
    static let publishers: Set<Role> = [.planner, .administrator]
    /// The largest zone file the API reads: the NYC taxi zones are 1.3 MB with full-precision coordinates.
    static let maxUpload = 32 * 1024 * 1024

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.post(use: upload)
        group.get(use: list)
        group.get("{version}", use: show)
        group.post("{version}/activation", use: activate)
    }

    /// `POST /v1/zone-sets[?comment=]` with a GeoJSON FeatureCollection
    /// (each zone's id the feature id or `properties.id`, its name
    /// `properties.name`): 201 with the new version, or 422 listing every
    /// problem of the file (by feature id), nothing stored.
    @Sendable func upload(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: Self.publishers)
        let query = request.uri.queryParameters
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maxUpload)
        } catch {
            throw Problem(status: .contentTooLarge, detail: "a zone file may be at most \(Self.maxUpload / 1024 / 1024) MiB")
        }
        let data = Data(body.readableBytesView)
        let loaded: LoadedZones
        do {
            loaded = try ZoneFileLoader.load(data: data, options: ZoneFileOptions())
        } catch {
            context.logger.warning("zones: an upload by \(caller.username) was refused, the zone set in force stays: \(error)")
            throw Problem.rejectedZoneFile(error)
        }
        let comment = query.get("comment").map { String($0.prefix(500)) }
        let version = try await store.add(
            geoJSON: data, zoneCount: loaded.zoneSet.zones.count, uploadedBy: caller.username, at: clock.now, comment: comment)
        recent.remember(loaded.zoneSet, as: version.version)
        var json = ZoneSetVersionJSON(version)
        json.warnings = loaded.warnings.map(\.description)
        return try JSONResponse.created(json, location: "/v1/zone-sets/\(version.version)")
    }

    /// `GET /v1/zone-sets`: every version, newest first, the active one marked.
    @Sendable func list(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: Self.publishers)
        return try JSONResponse.ok(ZoneSetListJSON(versions: try await store.versions().map(ZoneSetVersionJSON.init)))
    }

    /// `GET /v1/zone-sets/{version}`: the version's GeoJSON as uploaded.
    @Sendable func show(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: Self.publishers)
        let number = try Self.version(context)
        guard let geoJSON = try await store.geoJSON(of: number) else { throw Problem.notFound("there is no zone set version \(number)") }
        return Response(
            status: .ok, headers: [.contentType: "application/geo+json"], body: .init(byteBuffer: ByteBuffer(bytes: geoJSON)))
    }

    /// `POST /v1/zone-sets/{version}/activation`: makes the version the
    /// active one and puts it in force: its index is built beside the
    /// running one first, so a version that no longer loads is refused
    /// (422, the running set stays) before anything changes.
    @Sendable func activate(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: Self.publishers)
        let number = try Self.version(context)
        let zoneSet: ZoneSet
        do {
            zoneSet = try await self.zoneSet(of: number)
        } catch let error as ZoneFileError {
            context.logger.warning("zones: version \(number) was refused, the zone set in force stays: \(error)")
            throw Problem.rejectedZoneFile(error)
        }
        let index: ZoneIndex
        do {
            index = try ZoneIndex(zoneSet: zoneSet)
        } catch {
            context.logger.warning("zones: version \(number) was refused, the zone set in force stays: \(error)")
            throw Problem.unprocessable("zone set version \(number) does not build a zone index (\(error)); the zone set in force stays")
        }
        guard let version = try await store.activate(number, by: caller.username, at: clock.now) else {
            throw Problem.notFound("there is no zone set version \(number); list them with GET /v1/zone-sets")
        }
        await zoneSwitch?.switchTo(index, version: number, from: "version \(number) activated by \(caller.username)")
        return try JSONResponse.ok(ZoneSetVersionJSON(version))
    }

    /// Version `number`'s zone set: as uploaded lately, else loaded (and
    /// validated) from the store.
    /// - Throws: 404 problem+json when there is no such version, the zone
    ///   engine's error when it no longer loads.
    private func zoneSet(of number: Int) async throws -> ZoneSet {
        if let uploaded = recent.zoneSet(of: number) { return uploaded }
        guard let geoJSON = try await store.geoJSON(of: number) else {
            throw Problem.notFound("there is no zone set version \(number); list them with GET /v1/zone-sets")
        }
        return try ZoneFileLoader.load(data: geoJSON, options: ZoneFileOptions()).zoneSet
    }

    private static func version(_ context: APIRequestContext) throws -> Int {
        let text = try context.pathParameter("version")
        guard let number = Int(text), number > 0 else {
            throw Problem.badRequest("'\(text)' is not a zone set version; versions are whole numbers from 1")
        }
        return number
    }
}

extension Problem {
    /// 422 for a zone file the zone engine rejected: every problem in `errors`, by feature.
    static func rejectedZoneFile(_ error: ZoneFileError) -> Problem {
        switch error {
        case .unreadable(_, let reason), .notJSON(let reason):
            return Problem.badRequest("the body is not a GeoJSON document: \(reason)")
        case .invalid(let problems, _):
            var problem = Problem.unprocessable(
                "the zone file has \(problems.count) problem(s); nothing was stored: fix them and upload it again")
            problem.fieldProblems = problems.map { FieldProblemJSON(field: $0.subject, problem: $0.message) }
            return problem
        }
    }
}

/// A zone set version as the API shows it.
struct ZoneSetVersionJSON: Codable, Sendable {
    var version: Int
    var uploadedBy: String
    var uploadedAt: String
    var zoneCount: Int
    var bytes: Int
    var comment: String?
    var active: Bool
    var activatedBy: String?
    var activatedAt: String?
    /// What the zone engine warned of at upload (tiny slivers, odd names).
    var warnings: [String]?

    init(_ version: ZoneSetVersion) {
        self.version = version.version
        uploadedBy = version.uploadedBy
        uploadedAt = FixTime.iso8601(version.uploadedAt)
        zoneCount = version.zoneCount
        bytes = version.bytes
        comment = version.comment
        active = version.activation != nil
        activatedBy = version.activation?.by
        activatedAt = version.activation.map { FixTime.iso8601($0.at) }
    }
}

/// `GET /v1/zone-sets`.
struct ZoneSetListJSON: Codable, Sendable {
    var versions: [ZoneSetVersionJSON]
}
