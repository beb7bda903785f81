import Foundation
import Hummingbird

/// The service's web pages, served by the service itself (no external
/// tiles, fonts or scripts): the dispatcher's live map (`/map`), the
/// passenger's app (`/app`) and the driver's tablet app (`/driver`). Each
/// page's HTML, scripts and styles come from the API's resources (or from
/// `serve --web-root`, a city's own edition of them), Leaflet from
/// Debian's `libjs-leaflet` folder. The pages are public; what they show
/// comes from the API with the token of a login made on the page.
struct WebPagesController: Sendable {
    /// Where Debian's `libjs-leaflet` puts Leaflet.
    static let debianLeafletDirectory = "/usr/share/javascript/leaflet"
    /// The Leaflet files a page loads, at `/PAGE/leaflet/FILE`.
    static let leafletFiles: Set<String> = ["leaflet.js", "leaflet.css"]
    /// Each page's files besides its HTML, at `/PAGE/FILE`: nothing else is served.
    static let pages: [String: Set<String>] = [
        "map": ["map.js", "map.css", "map-phone-desk.js"],
        "app": ["app.js", "app.css", "app.webmanifest", "app-icon.svg", "session.js", "address-field.js"],
        "driver": ["driver.js", "driver.css", "session.js"],
    ]
    /// The content type of each kind of file served.
    static let contentTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "webmanifest": "application/manifest+json", "svg": "image/svg+xml",
    ]

    /// The folder Leaflet is read from.
    let leafletDirectory: String
    /// A folder whose files are served instead of the built-in ones of the
    /// same name (nil: the built-in ones only).
    let webRoot: String?

    func addRoutes(to router: Router<APIRequestContext>) {
        for (page, files) in Self.pages {
            router.get(RouterPath(page)) { _, _ -> Response in
                guard FileManager.default.isReadableFile(atPath: leafletDirectory + "/leaflet.js") else {
                    return Self.html(status: .serviceUnavailable, Self.missingLeafletPage(leafletDirectory))
                }
                return try file(page + ".html")
            }
            router.get(RouterPath(page + "/:file")) { _, context -> Response in
                let name = try context.pathParameter("file")
                guard files.contains(name) else { throw Problem.notFound("/\(page) has no file \(name)") }
                return try file(name)
            }
            router.get(RouterPath(page + "/leaflet/:file")) { _, context -> Response in
                try leaflet(try context.pathParameter("file"))
            }
        }
    }

    /// One of the pages' files: from ``webRoot`` when it has it, else built in;
    /// a 500 naming it when the build lost it.
    private func file(_ name: String) throws -> Response {
        let type = Self.contentTypes[(name as NSString).pathExtension] ?? "application/octet-stream"
        if let webRoot, let data = FileManager.default.contents(atPath: webRoot + "/" + name) {
            return Self.response(data, type: type)
        }
        let base = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        guard let url = Bundle.module.url(forResource: base, withExtension: ext, subdirectory: "web"),
              let data = try? Data(contentsOf: url) else {
            throw Problem(status: .internalServerError, detail: "\(name) is missing from this build; rebuild the service")
        }
        return Self.response(data, type: type)
    }

    private func leaflet(_ name: String) throws -> Response {
        guard Self.leafletFiles.contains(name) else {
            throw Problem.notFound("the pages serve leaflet.js and leaflet.css only, not \(name)")
        }
        guard let data = FileManager.default.contents(atPath: leafletDirectory + "/" + name) else {
            throw Problem(status: .serviceUnavailable, detail: Self.missingLeafletText(leafletDirectory))
        }
        return Self.response(data, type: Self.contentTypes[(name as NSString).pathExtension] ?? "text/plain")
    }

    private static func response(_ data: Data, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: data)))
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
        <html lang="en"><head><meta charset="utf-8"><title>mytaxi: Leaflet is missing</title></head>
        <body><h1>The map cannot be shown</h1><p>\(missingLeafletText(directory))</p></body></html>
        """
    }
}
