import Testing
@testable import TackCore

/// Each install failure in the words a user reads, said in one place (`InstallFailure.message`):
/// the command tests match the case, and this holds the words.
@Suite struct InstallFailureTests {
    @Test func eachFailureSaysWhatWasFoundAndWhatToDo() {
        let a = String(repeating: "a", count: 64), b = String(repeating: "b", count: 64)
        let cases: [(InstallFailure, String)] = [
            (.checksumMismatch(tool: "jq 1.7.1", platform: "linux-x86_64", expected: a, actual: b, origin: .lock),
             "checksum mismatch for jq 1.7.1 (linux-x86_64): tack.lock says \(a), download is \(b) — nothing was installed; if the publisher replaced the file on purpose, check it, then run `tack update jq` to lock the new one"),
            (.checksumMismatch(tool: "jq 1.7.1", platform: "linux-x86_64", expected: a, actual: b, origin: .manifest),
             "checksum mismatch for jq 1.7.1 (linux-x86_64): the manifest's checksum is \(a), download is \(b) — nothing was installed; fix the checksum in tack.yml if the publisher replaced the file on purpose"),
            (.checksumMismatch(tool: "python 3.11.7", platform: "linux-x86_64", expected: a, actual: b, origin: .publisher(says: "the publisher's checksums (https://example.com/SHA256SUMS) say")),
             "checksum mismatch for python 3.11.7 (linux-x86_64): the publisher's checksums (https://example.com/SHA256SUMS) say \(a), download is \(b) — nothing was installed; the file served is not the one its publisher lists: it was damaged or replaced on the way; try again later, and tell the publisher if it persists"),
            (.tagMoved(tool: "hello 1.0.0", tag: "v1.0.0", repository: "https://example.com/hello.git", now: "1111", locked: "2222"),
             "tag v1.0.0 of https://example.com/hello.git now points to 1111, but tack.lock says 2222 — nothing was installed; if the move is expected, run `tack update hello`"),
            (.tagGone(tool: "hello 1.0.0", tag: "v1.0.0", repository: "https://example.com/hello.git"),
             "https://example.com/hello.git has no tag v1.0.0 any more (tack.lock's tag for hello 1.0.0) — nothing was installed"),
            (.registryChanged(tag: "v4.99.1", source: "https://example.com/registry.yaml", actual: a, locked: b),
             "aqua's registry v4.99.1 (https://example.com/registry.yaml) is not the one tack.lock was made with (its SHA-256 is \(a), the lock's \(b)) — nothing was installed; run `tack update` to lock with this registry"),
        ]
        for (failure, words) in cases {
            #expect(failure.message == words)
            let error = TackError(failure)
            #expect(error.message == words && error.cause == .install(failure))
        }
    }
}
