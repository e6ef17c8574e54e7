import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

@Suite struct HarnessSpawnTests {
    /// A descriptor the test process holds open without close-on-exec (a lock another test
    /// takes with `open`) never reaches a program the harness starts.
    @Test func noOtherDescriptorReachesTheChild() throws {
        let s = try Sandbox()
        let fd = open(s.root + "/held.lock", O_RDWR | O_CREAT, 0o644)
        try #require(fd > 2)
        defer { close(fd) }
        let r = try s.run("/bin/sh", ["-c", "ls /proc/self/fd"])
        let open = r.stdout.split(separator: "\n").compactMap { Int32($0) }
        #expect(!open.contains(fd), "\(open) holds \(fd)")
        #expect(Set(open).isSuperset(of: [0, 1, 2]))
    }
}
