import ArgumentParser
import Foundation
import TackCore
import TackFront
import TackKit

/// Project files written so that an interrupt puts back what was there (`Interrupts.write`).
struct InterruptSafeWriter: ProjectFileWriter {
    let fs: any FileSystem
    func write(_ path: String, _ bytes: [UInt8]) throws(TackError) { try Interrupts.write(path, bytes, fs: fs) }
}
