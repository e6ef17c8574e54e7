import Testing
@testable import TackCore

@Suite struct VersionTests {
    @Test(arguments: [
        ("1.2", "1.10"), ("1.9", "1.10"), ("2.0.0-rc1", "2.0.0"), ("2.0.0-alpha", "2.0.0-beta"),
        ("2.0.0-beta", "2.0.0-rc1"), ("2.0.0-rc1", "2.0.0-rc2"), ("1.0.0", "1.0.1"), ("0.9.99", "1.0"),
        ("20231231", "20240101"), ("1.2.3", "1.2.3.1"), ("1.0b2", "1.0"), ("3.12.0rc1", "3.12.0"),
        ("1.2.9", "1.3"), ("99999999999999999999", "100000000000000000000"), ("v1.2", "1.2.1"),
    ])
    func ordering(_ lower: String, _ higher: String) throws {
        let a = try #require(Version(lower)), b = try #require(Version(higher))
        #expect(a < b)
        #expect(!(b < a))
        #expect(a != b)
    }

    @Test(arguments: [("v1.2", "1.2"), ("1.2", "1.2.0"), ("V2.0.0", "2"), ("1.02", "1.2"), ("1.0-RC1", "1.0-rc1")])
    func equality(_ x: String, _ y: String) throws {
        let a = try #require(Version(x)), b = try #require(Version(y))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(!(a < b) && !(b < a))
    }

    @Test(arguments: ["", "v", "latest", "1..2", "1.2.", "../1", "1/2", "1.2 3", "-1", ".1", "1;2", "1.2\n", "é1", "1.é"])
    func rejects(_ text: String) {
        #expect(Version(text) == nil)
    }

    @Test func keepsTextWithoutV() throws {
        #expect(try #require(Version("v1.2.3")).text == "1.2.3")
        #expect(try #require(Version("2.0.0-rc1")).isPrerelease)
        #expect(try #require(Version("2.0.0")).isPrerelease == false)
    }

    /// Ordering laws and the print/parse round trip over many generated versions.
    @Test func laws() throws {
        var rng = SplitMix64(seed: 0x7ac4)
        let versions = (0..<300).map { _ in Version(randomVersionText(&rng))! }
        for v in versions {
            #expect(Version(v.description) == v, "parse(print(\(v))) == \(v)")
            #expect(!(v < v))
        }
        for _ in 0..<20000 {
            let x = versions[Int(rng.next() % 300)], y = versions[Int(rng.next() % 300)], z = versions[Int(rng.next() % 300)]
            if x < y && y < z { #expect(x < z, "\(x) < \(y) < \(z)") }
            // Exactly one of <, ==, > holds.
            #expect([x < y, x == y, y < x].filter { $0 }.count == 1, "\(x) vs \(y)")
            if x == y { #expect(x.hashValue == y.hashValue) }
        }
    }
}

func randomVersionText(_ rng: inout SplitMix64) -> String {
    var s = rng.next() % 4 == 0 ? "v" : ""
    let n = 1 + Int(rng.next() % 4)
    for i in 0..<n {
        if i > 0 { s += "." }
        s += String(rng.next() % (i == 0 ? 30 : 12))
    }
    switch rng.next() % 6 {
    case 0: s += "-rc\(rng.next() % 3)"
    case 1: s += "-beta"
    case 2: s += ".0"
    default: break
    }
    return s
}
