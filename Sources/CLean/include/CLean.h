// The C library as tack's hot path sees it. TackLean imports only this module, so the same
// sources build both as a normal Swift module (for the `tack` front end and the tests) and in
// Embedded Swift (for the `tack` executable, which then starts as fast as a C program), where the Glibc
// and Darwin overlays do not exist.
#ifndef CLEAN_H
#define CLEAN_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/// `errno` (a macro, which Swift cannot call).
int lean_errno(void);
/// Sets `errno`.
void lean_set_errno(int value);
/// `open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)` of a regular file only, else -1 (open is
/// variadic, which Swift cannot call).
int lean_open_read(const char *path);
/// `open(path, flags, mode)` (open is variadic, which Swift cannot call).
int lean_open(const char *path, int flags, mode_t mode);
/// The process environment (`environ`, or `_NSGetEnviron()` on Darwin).
char **lean_environ(void);
/// Whether `st` describes a regular file.
int lean_is_regular(const struct stat *st);
/// Modification and status-change times of `st`, as seconds and nanoseconds.
void lean_times(const struct stat *st, int64_t out[4]);
/// The FNV-1a (64-bit) fingerprint of the regular file at `path` into `out`, when it is a
/// regular file of at most `limit` bytes; returns its size, or -1. Never blocks on a pipe.
int64_t lean_content_fingerprint(const char *path, int64_t limit, uint64_t *out);
/// Whether the file system holding `path` is a local one known to move a directory's times,
/// by this machine's clock, whenever a name in it comes or goes (ext4, xfs, btrfs, tmpfs,
/// overlayfs, zfs, f2fs; apfs and hfs on macOS): 1, else 0 (network and FUSE file systems).
int lean_local_directory_times(const char *path);
/// The absolute path of this executable into `buf` (NUL-terminated); 0 on success.
int lean_self_path(char *buf, size_t size);

#endif
