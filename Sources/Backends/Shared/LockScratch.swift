import Foundation
import TackCore

/// A new directory in `cache` for what `tack lock` resolves and fetches without installing;
/// the caller removes it.
func lockScratchDirectory(in cache: String) throws(TackError) -> String {
    let dir = cache + "/.lock-\(getpid())-\(UUID().uuidString)"
    try LocalFileSystem().makeDirectory(dir)
    return dir
}
