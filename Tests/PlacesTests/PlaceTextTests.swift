import Testing
@testable import Places

/// How typed text and map names become the words an index compares.
@Suite(.timeLimit(.minutes(20))) struct PlaceTextTests {
    let text = PlaceText()

    @Test func caseAndPunctuationAndDiacriticsDoNotMatter() {
        #expect(text.words("W. 42nd St.") == ["w", "42", "st"])
        #expect(text.words("Café Müller, Zürich") == ["cafe", "muller", "zurich"])
        #expect(text.words("Macy’s") == ["macys"])
        #expect(text.words("Macy's") == ["macys"])
        #expect(text.words("Times Sq–42nd") == ["times", "sq", "42"])
    }

    @Test func spellingsOfOneWordReadTheSame() {
        #expect(text.words("350 Fifth Avenue") == text.words("350 5th Ave"))
        #expect(text.words("West 42nd Street") == text.words("W 42 St"))
        #expect(text.words("Saint Marks Place") == text.words("St Marks Pl"))
        #expect(text.words("Hauptstraße") == ["hauptstrasse"])
        #expect(text.words("Berliner Str.") == text.words("Berliner St"))
    }

    @Test func aLanguageIsATableToAdd() {
        let french = PlaceVocabulary(groups: ["bd": ["boulevard", "boul"], "r": ["rue"]], minorWords: ["de", "la"])
        let text = PlaceText(vocabulary: PlaceVocabulary.english.merging(french))
        #expect(text.words("12 rue de la Paix") == ["12", "r", "de", "la", "paix"])
        #expect(text.isMinor("de"))
        #expect(text.words("Boul. Haussmann") == text.words("boulevard haussmann"))
    }

    @Test func aMisspelledOrHalfTypedSpellingFindsItsForm() {
        #expect(text.misspelledForms(of: "avnue").contains("ave"))
        #expect(text.misspelledForms(of: "fith").contains("5"))
        #expect(text.misspelledForms(of: "wst").contains("w"))
        #expect(text.misspelledForms(of: "ab").isEmpty)
        #expect(text.completedForms(of: "aven") == ["ave"])
        #expect(text.completedForms(of: "5t").contains("5"))
    }

    @Test func houseNumbersAreDigitsWithPerhapsALetter() {
        #expect(PlaceText.isHouseNumber("350"))
        #expect(PlaceText.isHouseNumber("12a"))
        #expect(!PlaceText.isHouseNumber("a12"))
        #expect(!PlaceText.isHouseNumber("ave"))
    }

    @Test func editDistanceCountsASwapOfNeighboursOnce() {
        func distance(_ a: String, _ b: String) -> Int {
            TokenVocabulary.editDistance(Array(a.utf8), Array(b.utf8), atMost: 3)
        }
        #expect(distance("broadway", "braodway") == 1)
        #expect(distance("broadway", "brodway") == 1)
        #expect(distance("broadway", "broadwayy") == 1)
        #expect(distance("broadway", "brxadwey") == 2)
        #expect(distance("", "abc") == 3)
        #expect(TokenVocabulary.editDistance(Array("lexington".utf8), Array("madison".utf8), atMost: 2) == 3)
    }
}
