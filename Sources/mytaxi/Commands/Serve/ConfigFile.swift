import ArgumentParser
import Foundation
import GeoKit

/// The `--config` file of `mytaxi serve`: a JSON object whose keys are the
/// long flag names (`"zones"`, `"http-port"`, ...).
struct ConfigFile {
    private var values: [String: JSONValue] = [:]

    init() {}

    static func load(path: String) throws -> ConfigFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read the config file \(path)")
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(data)
        } catch {
            throw ValidationError("config file \(path): \(error)")
        }
        guard case .object(let members) = document else {
            throw ValidationError("config file \(path): expected a JSON object of flag names and values")
        }
        var file = ConfigFile()
        file.values = members
        return file
    }

    func string(_ key: String) -> String? {
        values[key]?.scalarText
    }

    func int(_ key: String) throws -> Int? {
        guard let text = string(key) else { return nil }
        guard let value = Int(text) else { throw ValidationError("config key \"\(key)\" must be a whole number, not '\(text)'") }
        return value
    }

    func double(_ key: String) throws -> Double? {
        guard let text = string(key) else { return nil }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw ValidationError("config key \"\(key)\" must be a non-negative number, not '\(text)'")
        }
        return value
    }
}
