import TackCore
import Testing

/// The parts of `min_release_age` that need no index: ages and publication times as indexes
/// write them.
@Suite struct ReleaseAgeUnitTests {
    @Test func agesAreMinutesHoursDaysOrWeeks() {
        #expect(ReleaseAge.seconds("90m") == 5400)
        #expect(ReleaseAge.seconds("12h") == 43200)
        #expect(ReleaseAge.seconds("3d") == 259_200)
        #expect(ReleaseAge.seconds("2w") == 1_209_600)
        #expect(ReleaseAge.seconds("0") == 0)
        for bad in ["", "3", "d", "-1d", "3 days", "1y", "99999999999d"] { #expect(ReleaseAge.seconds(bad) == nil, "\(bad)") }
    }

    @Test func publicationTimesAreReadAsIndexesWriteThem() {
        #expect(ReleaseAge.timestamp("1970-01-01") == 0)
        #expect(ReleaseAge.timestamp("2024-02-29") == 1_709_164_800)
        #expect(ReleaseAge.timestamp("2024-11-20T10:15:30Z") == 1_732_097_730)
        #expect(ReleaseAge.timestamp("2024-11-20T10:15:30.123456Z") == 1_732_097_730)
        #expect(ReleaseAge.timestamp("2024-11-20T12:15:30+02:00") == 1_732_097_730)
        #expect(ReleaseAge.timestamp("2024-11-20T05:15:30-0500") == 1_732_097_730)
        for bad in ["", "2024", "2024-13-01", "20-11-2024", "2024-11-20X10:15"] { #expect(ReleaseAge.timestamp(bad) == nil, "\(bad)") }
    }

    @Test func ageIsSaidInTheLargestWholeUnit() {
        #expect(ReleaseAge.describe(0, now: 86400 * 3 + 5) == "3 days")
        #expect(ReleaseAge.describe(0, now: 3600) == "1 hour")
        #expect(ReleaseAge.describe(0, now: 30) == "1 minute")
        let age = ReleaseAge(seconds: 86400, text: "1d", origin: "x")
        #expect(age.holdsBack(100, now: 100 + 3600) && !age.holdsBack(0, now: 86400))
    }
}
