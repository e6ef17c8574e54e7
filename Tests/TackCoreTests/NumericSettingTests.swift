import TackCore
import Testing

/// One bounded parser for every numeric setting (issue 44, item 3).
@Suite struct NumericSettingTests {
    @Test func plainDecimalsWithinBoundsAndNothingElse() {
        func read(_ text: String, minimum: Double = 0.5, maximum: Double = NumericSetting.day) -> Double? {
            NumericSetting.read(["X": text], "X", minimum: minimum, maximum: maximum)
        }
        #expect(read("5") == 5 && read("2.5") == 2.5 && read("1e2") == 100)
        #expect(read("9.3e15") == NumericSetting.day && read("1e400") == nil, "huge is the maximum; beyond a Double is not a number")
        #expect(read("0.1") == 0.5, "a small positive value is the minimum")
        for junk in ["", "0", "-5", "nan", "NaN", "inf", "-inf", "abc", "0x10", " 3", "3 ", "1_000", "١٢", String(repeating: "9", count: 100)] {
            #expect(read(junk) == nil, "\(junk)")
        }
        #expect(read("0", minimum: 0, maximum: 10) == 0, "zero where zero is allowed")
        #expect(NumericSetting.integer(["J": "4"], "J", minimum: 1, maximum: 256) == 4)
        #expect(NumericSetting.integer(["J": "2.5"], "J", minimum: 1, maximum: 256) == nil)
        #expect(NumericSetting.integer(["J": "100000"], "J", minimum: 1, maximum: 256) == 256)
        #expect(NumericSetting.integer(["J": "0"], "J", minimum: 1, maximum: 256) == nil)
    }
}
