import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads `mytaxi_fixes_archived_total` from the server's Prometheus text.
enum MetricsScrape {
    static func archivedFixes(url: String) -> Int? {
        guard let url = URL(string: url), let data = try? Data(contentsOf: url),
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("mytaxi_fixes_archived_total") {
            if let value = line.split(separator: " ").last.flatMap({ Double($0) }) { return Int(value) }
        }
        return nil
    }
}
