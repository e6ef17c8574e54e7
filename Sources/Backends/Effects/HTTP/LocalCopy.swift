import Foundation
import TackCore

/// A `file://` download: the file copied and hashed as it is read. Only a regular file: a FIFO
/// would block the open for ever, and a device (`/dev/zero`) would never end.
enum LocalCopy {
    static func copy(_ path: String, to destination: String, cap: (bytes: Int64, message: String)? = nil) throws(HTTPFailure) -> String {
        var copied: Int64 = 0
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw HTTPFailure(.noSuchFile(path)) }
        let input = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        defer { try? input.close() }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            throw HTTPFailure(.notARegularFile(path))
        }
        guard let out = NewFile.open(destination) else { throw HTTPFailure(.cannotWrite(destination, detail: nil)) }
        defer { try? out.close() }
        let hasher = Digest(.sha256)
        while true {
            let chunk: Data
            do { chunk = try input.read(upToCount: 1 << 20) ?? Data() } catch {
                throw HTTPFailure(.cannotRead(path, detail: describe(error)))
            }
            if chunk.isEmpty { break }
            copied += Int64(chunk.count)
            if let cap, copied > cap.bytes { throw HTTPFailure(.overLimit(cap.message)) }
            chunk.withUnsafeBytes { hasher.update($0) }
            do { try out.write(contentsOf: chunk) } catch {
                throw HTTPFailure(.cannotWrite(destination, detail: describe(error)))
            }
        }
        return Hashing.hex(hasher.finalize())
    }
}
