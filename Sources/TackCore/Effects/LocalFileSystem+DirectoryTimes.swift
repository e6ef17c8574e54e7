import CLean

extension LocalFileSystem {
    /// By the kind of file system holding `path` (`statfs`): local ones move a directory's
    /// times with each name that comes or goes; network and FUSE ones may not, or by another
    /// machine's clock.
    public func keepsDirectoryTimes(_ path: String) -> Bool { lean_local_directory_times(path) == 1 }
}
