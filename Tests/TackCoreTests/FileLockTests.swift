import Foundation
import Testing
@testable import TackCore
#if canImport(Glibc)
import Glibc
#endif

@Suite struct FileLockTests {
    /// A lock is free once the value that took it goes, even while another process still holds
    /// a copy of its descriptor (as a child another thread is starting does until it execs).
    @Test func aLockIsFreeWhenItsValueGoesThoughAChildSharesItsDescriptor() throws {
        let dir = FileManager.default.temporaryDirectory.path + "/tack-filelock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/project.lock"
        var held: FileLock? = try FileLock(path: path)
        #expect(held?.tryLock() == true)
        // A child that keeps a copy of the lock's descriptor as its fd 3 (dup2 clears
        // close-on-exec).
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, try #require(held).fd, 3)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("30"), nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        try #require(posix_spawn(&pid, "/bin/sleep", &actions, nil, argv, environ) == 0 && pid > 0)
        defer {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        held = nil
        let next = try FileLock(path: path)
        #expect(next.tryLock(), "the lock is still held by the child's copy of the descriptor")
    }
}
