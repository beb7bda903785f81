import FixRecords
import Storage
import Testing
@testable import API

/// The paging cursors' wire format: a cursor a client holds from an
/// earlier page still reads as the same place.
@Suite(.timeLimit(.minutes(20))) struct PageCursorTests {
    /// Base64url of `1790000000000 D1`.
    @Test func aTaxiFixCursorReadsAndWritesTheSameText() throws {
        let cursor = try FixPageCursor(parsing: "MTc5MDAwMDAwMDAwMCBEMQ")
        #expect(cursor.milliseconds == 1_790_000_000_000)
        #expect(cursor.device == "D1")
        #expect(cursor.text == "MTc5MDAwMDAwMDAwMCBEMQ")
    }

    /// Base64url of `{"time":1790000000000,"taxi":"T1","device":"D1"}`.
    @Test func aZoneFixCursorReadsAsTheFixKeyItWasWrittenFor() throws {
        let cursor = try ZoneFixCursor(parsing: "eyJ0aW1lIjoxNzkwMDAwMDAwMDAwLCJ0YXhpIjoiVDEiLCJkZXZpY2UiOiJEMSJ9")
        #expect(cursor.key == FixKey(milliseconds: 1_790_000_000_000, taxi: "T1", device: "D1"))
        #expect(try ZoneFixCursor(parsing: cursor.text) == cursor)
    }

    @Test func aCursorThatIsNotBase64URLIsABadRequest() {
        #expect(throws: Problem.self) { try FixPageCursor(parsing: "MTc5MDAwMDAwMDAwMCBEMQ==") }
        #expect(throws: Problem.self) { try ZoneFixCursor(parsing: "!!") }
    }
}
