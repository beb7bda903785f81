import Foundation
import Hummingbird

/// `/map`: the dispatcher's live map, served by the service itself (no
/// external tiles, fonts or scripts): the page, its script and style from the API's
/// resources, Leaflet from Debian's `libjs-leaflet` folder. The page is
/// public; what it shows comes from the API with the token of a login made
/// on the page (dispatcher, planner or administrator).
struct MapController: Sendable {
    /// Where Debian's `libjs-leaflet` puts Leaflet.
    static let debianLeafletDirectory = "/usr/share/javascript/leaflet"
    /// The Leaflet files the page loads.
    static let leafletFiles: [String: String] = ["leaflet.js": "text/javascript", "leaflet.css": "text/css"]

    /// The folder Leaflet is read from.
    let leafletDirectory: String

    func addRoutes(to router: Router<APIRequestContext>) {
        router.get("/map") { _, _ -> Response in
            guard FileManager.default.isReadableFile(atPath: leafletDirectory + "/leaflet.js") else {
                return Self.html(status: .serviceUnavailable, Self.missingLeafletPage(leafletDirectory))
            }
            return try Self.resource("map", extension: "html", type: "text/html; charset=utf-8")
        }
        router.get("/map/map.js") { _, _ -> Response in
            try Self.resource("map", extension: "js", type: "text/javascript; charset=utf-8")
        }
        router.get("/map/map.css") { _, _ -> Response in
            try Self.resource("map", extension: "css", type: "text/css; charset=utf-8")
        }
        router.get("/map/leaflet/:file") { _, context -> Response in
            let file = try context.pathParameter("file")
            guard let type = Self.leafletFiles[file] else {
                throw Problem.notFound("the map serves leaflet.js and leaflet.css only, not \(file)")
            }
            guard let data = FileManager.default.contents(atPath: leafletDirectory + "/" + file) else {
                throw Problem(status: .serviceUnavailable, detail: Self.missingLeafletText(leafletDirectory))
            }
            return Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    /// A file of the API's resources; a 500 naming it when the build lost it.
    private static func resource(_ name: String, extension: String, type: String) throws -> Response {
        guard let url = Bundle.module.url(forResource: name, withExtension: `extension`), let data = try? Data(contentsOf: url) else {
            throw Problem(status: .internalServerError, detail: "\(name).\(`extension`) is missing from this build; rebuild the service")
        }
        return Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private static func html(status: HTTPResponse.Status, _ page: String) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    private static func missingLeafletText(_ directory: String) -> String {
        "the map needs Leaflet from Debian's libjs-leaflet package, which is not installed (no \(directory)/leaflet.js): "
            + "install it with `apt-get install libjs-leaflet` (`make deps` does), then reload the page"
    }

    private static func missingLeafletPage(_ directory: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>mytaxi map: Leaflet is missing</title></head>
        <body><h1>The map cannot be shown</h1><p>\(missingLeafletText(directory))</p></body></html>
        """
    }
}
