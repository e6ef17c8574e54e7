#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls a journal writes with. `.system` in an app; a test gives one that fails
/// the way a full disk or a file-size limit does, without changing the whole test process.
public struct FileIO: Sendable {
    /// Writes up to `count` bytes; the bytes written, or -1 with `errno` set.
    public var write: @Sendable (_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int
    /// 0, or -1 with `errno` set.
    public var fsync: @Sendable (_ fd: Int32) -> Int32
    /// What makes an append durable: the data and the size that reads it back, not the times
    /// (`fdatasync` on Linux, as SQLite's write-ahead log syncs; `fsync` elsewhere). By
    /// default, `fsync`.
    public var datasync: @Sendable (_ fd: Int32) -> Int32

    public init(write: @escaping @Sendable (Int32, UnsafeRawPointer, Int) -> Int,
                fsync: @escaping @Sendable (Int32) -> Int32,
                datasync: (@Sendable (Int32) -> Int32)? = nil) {
        self.write = write
        self.fsync = fsync
        self.datasync = datasync ?? fsync
    }

    public static let system = FileIO(write: { fd, bytes, count in systemWrite(fd, bytes, count) },
                                      fsync: { fd in systemFsync(fd) }, datasync: { fd in systemDatasync(fd) })
}

func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
func systemFsync(_ fd: Int32) -> Int32 { fsync(fd) }
#if canImport(Glibc)
func systemDatasync(_ fd: Int32) -> Int32 { fdatasync(fd) }
#else
func systemDatasync(_ fd: Int32) -> Int32 { fsync(fd) }
#endif
/// Closes `fd` (a free function, so types with a `close()` of their own can call it).
func closeFile(_ fd: Int32) { _ = close(fd) }
