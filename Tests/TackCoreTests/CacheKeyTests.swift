import TackCore
import Testing

/// The team cache's key: the same inputs give the same tag on every machine, any difference
/// gives another, and a pulled build whose annotations disagree is named field by field.
@Suite struct CacheKeyTests {
    let platform = ["os": "linux", "arch": "x86_64", "libc": "glibc-2.36"]
    let inputs = ["source": "https://example.com/hello.git", "commit": String(repeating: "a", count: 40), "swift": "6.0.3"]

    @Test func equalInputsAreEqualTagsAndEveryFieldCounts() {
        let key = CacheKey(tool: "hello", inputs: inputs, platform: platform)
        #expect(key.tag == CacheKey(tool: "hello", inputs: inputs, platform: platform).tag)
        #expect(key.tag.count == 64)
        #expect(key.fields["platform.libc"] == "glibc-2.36" && key.fields["format"] == CacheKey.formatVersion)
        for (field, value) in [("swift", "6.1"), ("commit", String(repeating: "b", count: 40))] {
            var other = inputs
            other[field] = value
            #expect(CacheKey(tool: "hello", inputs: other, platform: platform).tag != key.tag, "\(field)")
        }
        var arm = platform
        arm["arch"] = "arm64"
        #expect(CacheKey(tool: "hello", inputs: inputs, platform: arm).tag != key.tag)
    }

    @Test func aValueCannotForgeAnotherField() {
        // `a` holding a line that looks like a field, against the same text split across two.
        let forged = CacheKey(tool: "t", fields: ["a": "1\"\nb=\"2"])
        let honest = CacheKey(tool: "t", fields: ["a": "1", "b": "2"])
        #expect(forged.canonical != honest.canonical && forged.tag != honest.tag)
    }

    @Test func annotationsThatDisagreeAreNamed() {
        let key = CacheKey(tool: "hello", inputs: inputs, platform: platform)
        #expect(key.mismatches(key.annotations).isEmpty)
        var pulled = key.annotations
        pulled[CacheKey.annotationPrefix + "swift"] = "5.10"
        pulled[CacheKey.annotationPrefix + "extra"] = "x"
        pulled.removeValue(forKey: CacheKey.annotationPrefix + "platform.libc")
        #expect(key.mismatches(pulled) == [
            "platform.libc: expected \"glibc-2.36\", found nothing",
            "swift: expected \"6.0.3\", found \"5.10\"",
            "extra: not part of this key, found \"x\"",
        ])
    }
}
