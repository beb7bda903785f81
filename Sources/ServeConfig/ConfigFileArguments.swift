import ArgumentParser
import Foundation

/// `mytaxi serve --config FILE` read as the command-line arguments it
/// stands for: a JSON object keyed by the long flag names
/// (`{"http-port": 8080, "line-port": "off", "require-device-secret": true}`
/// is `--http-port=8080 --line-port=off --require-device-secret`), so that
/// the file and the flags are read by the one declaration of each setting,
/// ``ServeOptions``, and checked by the same code.
public enum ConfigFileArguments {
    /// The settings that are switches: `true` or `false` (or those words
    /// as strings), given as the flag or its `--no-` form.
    static let switches: Set<String> = ["require-device-secret"]

    /// The arguments of the JSON config file at `path`.
    /// - Throws: `ValidationError` naming the file, and the key that is wrong.
    public static func load(path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read the config file \(path)")
        }
        return try read(data, named: "config file \(path)")
    }

    /// The arguments of a config file's bytes, as ``load(path:)`` reads
    /// them (the fuzz target feeds it bytes straight); errors are led by
    /// `name`. A value may be a JSON number or a string; keys come out in
    /// sorted order, so that a file always reads the same.
    public static func read(_ data: Data, named name: String) throws -> [String] {
        let settings: [String: Value]
        do {
            settings = try JSONDecoder().decode([String: Value].self, from: data)
        } catch {
            throw ValidationError("\(name): expected a JSON object of flag names and values, each a string, a number, true or false")
        }
        var arguments: [String] = []
        for (key, value) in settings.sorted(by: { $0.key < $1.key }) {
            guard key != "config", !key.isEmpty, !key.hasPrefix("-") else {
                throw ValidationError("\(name): \"\(key)\" is not a setting of the config file")
            }
            arguments += try value.arguments(key: key, file: name)
        }
        return arguments
    }

    /// One setting's value as the file gives it.
    enum Value: Decodable {
        case text(String)
        case number(Double)
        case truth(Bool)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let truth = try? container.decode(Bool.self) {
                self = .truth(truth)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        /// The flag and value of setting `key`, as one `--key=value`
        /// argument, so that a value that starts with a dash (a negative
        /// number) is not read as a flag.
        func arguments(key: String, file name: String) throws -> [String] {
            if switches.contains(key) {
                switch self {
                case .truth(true), .text("true"): return ["--\(key)"]
                case .truth(false), .text("false"): return ["--no-\(key)"]
                default: throw ValidationError("\(name): \"\(key)\" must be true or false")
                }
            }
            switch self {
            case .text(let text):
                return ["--\(key)=\(text)"]
            case .number(let number):
                let text = number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
                return ["--\(key)=\(text)"]
            case .truth:
                throw ValidationError("\(name): \"\(key)\" must be a string or a number")
            }
        }
    }
}
