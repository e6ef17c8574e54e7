import Foundation
import SystemPackage

/// A file created empty (or emptied) for writing, as a handle: where downloads stream to.
enum NewFile {
    static func open(_ path: String) -> FileHandle? {
        guard let fd = try? FileDescriptor.open(FilePath(path), .writeOnly, options: [.create, .truncate, .closeOnExec],
                                                permissions: [.ownerReadWrite, .groupRead, .otherRead]) else { return nil }
        return FileHandle(fileDescriptor: fd.rawValue, closeOnDealloc: true)
    }
}
