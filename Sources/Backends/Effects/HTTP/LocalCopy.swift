import Foundation
import TackCore

/// A `file://` download: the file copied and hashed as it is read.
enum LocalCopy {
    static func copy(_ path: String, to destination: String) throws(HTTPFailure) -> String {
        guard let input = FileHandle(forReadingAtPath: path) else { throw HTTPFailure(status: 404, message: "\(path) does not exist") }
        defer { try? input.close() }
        guard let out = NewFile.open(destination) else { throw HTTPFailure(status: 0, message: "cannot write \(destination)") }
        defer { try? out.close() }
        let hasher = Digest(.sha256)
        while true {
            let chunk: Data
            do { chunk = try input.read(upToCount: 1 << 20) ?? Data() } catch {
                throw HTTPFailure(status: 0, message: "cannot read \(path): \(describe(error))")
            }
            if chunk.isEmpty { break }
            chunk.withUnsafeBytes { hasher.update($0) }
            do { try out.write(contentsOf: chunk) } catch {
                throw HTTPFailure(status: 0, message: "cannot write \(destination): \(describe(error))")
            }
        }
        return Hashing.hex(hasher.finalize())
    }
}
