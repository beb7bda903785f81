import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GeoKit
import JSONKit
import Zones

/// The planner's side of the running service's HTTP API: publishing a zone
/// file (`POST /v1/zone-sets`, then `POST /v1/zone-sets/{version}/activation`)
/// and reading where the taxis are (`GET /v1/fleet`), with a bearer token.
public struct ZoneServiceClient: Sendable {
    /// What the service answered to an upload.
    public enum UploadAnswer: Sendable, Equatable {
        /// Stored as this version, with the zone engine's warnings.
        case stored(version: Int, warnings: [String])
        /// Refused (422): every problem the service found, by feature id.
        case refused([ZoneProblem])
    }

    /// A taxi of the live fleet: its id and last position.
    public struct TaxiPosition: Sendable, Equatable {
        public let taxiId: String
        public let position: Coordinate

        /// A taxi at `position`.
        public init(taxiId: String, position: Coordinate) {
            self.taxiId = taxiId
            self.position = position
        }
    }

    /// Why a call failed: the service could not be reached, or answered something unexpected.
    public struct ServiceError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The API's base URL, e.g. `http://127.0.0.1:8080`.
    public let base: URL
    private let token: String

    /// A client of the service at `base`, calling as the holder of `token`.
    public init(base: URL, token: String) {
        self.base = base
        self.token = token
    }

    /// Uploads a zone file as the service's next version.
    public func upload(_ geoJSON: Data, comment: String?) async throws(ServiceError) -> UploadAnswer {
        var components = URLComponents(url: base.appendingPathComponent("v1/zone-sets"), resolvingAgainstBaseURL: false)
        if let comment { components?.queryItems = [URLQueryItem(name: "comment", value: comment)] }
        guard let url = components?.url else { throw ServiceError(description: "not a URL: \(base)") }
        let (status, answer) = try await call("POST", url, body: geoJSON)
        switch status {
        case 201:
            guard case .number(let version)? = answer["version"] else {
                throw ServiceError(description: "the service stored the file but named no version: \(answer.serialized)")
            }
            let warnings: [String] = if case .array(let items)? = answer["warnings"] { items.compactMap(\.scalarText) } else { [] }
            return .stored(version: Int(version), warnings: warnings)
        case 422:
            guard case .array(let errors)? = answer["errors"] else { throw Self.unexpected(status, answer) }
            return .refused(errors.map {
                ZoneProblem(subject: $0["field"]?.scalarText ?? "file", message: $0["problem"]?.scalarText ?? $0.serialized)
            })
        default:
            throw Self.unexpected(status, answer)
        }
    }

    /// Makes `version` the active zone set.
    public func activate(version: Int) async throws(ServiceError) {
        let (status, answer) = try await call("POST", base.appendingPathComponent("v1/zone-sets/\(version)/activation"), body: nil)
        guard status == 200 else { throw Self.unexpected(status, answer) }
    }

    /// Every taxi of the live fleet with its last position.
    public func fleet() async throws(ServiceError) -> [TaxiPosition] {
        let (status, answer) = try await call("GET", base.appendingPathComponent("v1/fleet"), body: nil)
        guard status == 200, case .array(let entries) = answer else { throw Self.unexpected(status, answer) }
        return entries.compactMap { entry in
            guard let taxiId = entry["position"]?["taxiId"]?.scalarText,
                  case .number(let longitude)? = entry["position"]?["lon"],
                  case .number(let latitude)? = entry["position"]?["lat"] else { return nil }
            return TaxiPosition(taxiId: taxiId, position: Coordinate(longitude: longitude, latitude: latitude))
        }
    }

    /// Sends one request and reads the JSON answer (`null` when there is none).
    private func call(_ method: String, _ url: URL, body: Data?) async throws(ServiceError) -> (Int, JSONValue) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = 120
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        if let body {
            request.setValue("application/geo+json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw ServiceError(description: "\(method) \(url.absoluteString) failed: \(error.localizedDescription)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, (try? JSONParser.parse(data)) ?? .null)
    }

    private static func unexpected(_ status: Int, _ answer: JSONValue) -> ServiceError {
        let detail = answer["detail"]?.scalarText ?? answer.serialized
        return ServiceError(description: "the service answered \(status): \(detail)")
    }
}
