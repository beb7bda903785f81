import Foundation
import GeoKit
import GRDB
import SQLiteStorage
import Storage
import Testing

/// A dispatch log written before ended rides were looked up by id keeps
/// its history and answers for those rides once opened again.
@Suite(.timeLimit(.minutes(20))) struct SQLiteRideHistoryUpgradeTests {
    @Test func ridesEndedUnderTheOlderLayoutAreFoundByTheirID() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-ride-history-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let record = RideHistoryRecord(
            ride: "R67", reservation: nil, passenger: "phone:+12125550100", taxi: "TX7",
            pickup: Coordinate(longitude: 7.42, latitude: 43.73), destination: nil, pickupAt: nil,
            endedAt: Date(timeIntervalSince1970: 1_790_000_000), outcome: .completed)
        let older = try DatabaseQueue(path: directory + "/dispatch.sqlite")
        try await older.write { db in
            try db.execute(sql: """
                CREATE TABLE ride_history (
                    id INTEGER PRIMARY KEY, passenger TEXT NOT NULL, taxi TEXT, ended_ms INTEGER NOT NULL, record BLOB NOT NULL)
                """)
            try db.execute(
                sql: "INSERT INTO ride_history (passenger, taxi, ended_ms, record) VALUES (?, ?, ?, ?)",
                arguments: [record.passenger, record.taxi, 1_790_000_000_000, try JSONEncoder().encode(record)])
        }
        try older.close()
        let log = try SQLiteDispatchLog(directory: directory)
        #expect(try await log.endedRide("R67") == record)
        #expect(try await log.history(ofPassenger: record.passenger, since: .distantPast, limit: 10) == [record])
    }
}
