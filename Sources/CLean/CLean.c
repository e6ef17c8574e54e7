#include <sys/stat.h>
#include "CLean.h"
#include <fcntl.h>
#if defined(__APPLE__)
#include <crt_externs.h>
#include <mach-o/dyld.h>
#endif

int lean_errno(void) { return errno; }

void lean_set_errno(int value) { errno = value; }

int lean_open_read(const char *path) {
    /* Without blocking (a FIFO where the snapshot should be is not waited on), and only a
       regular file: anything else is closed and refused. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return fd;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) { close(fd); errno = EINVAL; return -1; }
    return fd;
}

int lean_open(const char *path, int flags, mode_t mode) { return open(path, flags, mode); }

char **lean_environ(void) {
#if defined(__APPLE__)
    return *_NSGetEnviron();
#else
    extern char **environ;
    return environ;
#endif
}

int lean_is_regular(const struct stat *st) { return S_ISREG(st->st_mode); }

void lean_times(const struct stat *st, int64_t out[4]) {
#if defined(__APPLE__)
    out[0] = st->st_mtimespec.tv_sec; out[1] = st->st_mtimespec.tv_nsec;
    out[2] = st->st_ctimespec.tv_sec; out[3] = st->st_ctimespec.tv_nsec;
#else
    out[0] = st->st_mtim.tv_sec; out[1] = st->st_mtim.tv_nsec;
    out[2] = st->st_ctim.tv_sec; out[3] = st->st_ctim.tv_nsec;
#endif
}

int lean_self_path(char *buf, size_t size) {
    if (size < 2) return -1;
#if defined(__APPLE__)
    char raw[PATH_MAX];
    uint32_t n = sizeof raw;
    if (_NSGetExecutablePath(raw, &n) != 0 || size < PATH_MAX || realpath(raw, buf) == NULL) return -1;
    return 0;
#else
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    if (n <= 0) return -1;
    buf[n] = 0;
    return 0;
#endif
}

int64_t lean_content_fingerprint(const char *path, int64_t limit, uint64_t *out) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > limit) {
        close(fd);
        return -1;
    }
    uint64_t h = 0xcbf29ce484222325ULL;
    unsigned char buf[8192];
    int64_t total = 0;
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            close(fd);
            return -1;
        }
        if (n == 0) break;
        for (ssize_t i = 0; i < n; i++) h = (h ^ buf[i]) * 0x100000001b3ULL;
        total += n;
        if (total > limit) {
            close(fd);
            return -1;
        }
    }
    close(fd);
    *out = h;
    return total;
}

/* `Double(String)` calls this Swift runtime function, which Embedded Swift (the `tack`
   executable) does not provide: the same parse, in the C locale (tack never sets another),
   nil (NULL) when the value is out of range. Weak, so the runtime's own wins wherever it is
   linked. */
__attribute__((weak)) const char *_swift_stdlib_strtod_clocale(const char *nptr, double *outResult) {
    char *end;
    errno = 0;
    double result = strtod(nptr, &end);
    *outResult = result;
    if (errno == ERANGE) return NULL;
    return end;
}

#if defined(__linux__)
#include <sys/vfs.h>
int lean_local_directory_times(const char *path) {
    struct statfs fs;
    if (statfs(path, &fs) != 0) return 0;
    switch ((unsigned long)fs.f_type) {
    case 0xEF53UL:      /* ext2, ext3, ext4 */
    case 0x58465342UL:  /* xfs */
    case 0x9123683EUL:  /* btrfs */
    case 0x01021994UL:  /* tmpfs */
    case 0x794C7630UL:  /* overlayfs */
    case 0x2FC12FC1UL:  /* zfs */
    case 0xF2F52010UL:  /* f2fs */
        return 1;
    default:
        return 0;
    }
}
#elif defined(__APPLE__)
#include <sys/mount.h>
int lean_local_directory_times(const char *path) {
    struct statfs fs;
    if (statfs(path, &fs) != 0) return 0;
    return strcmp(fs.f_fstypename, "apfs") == 0 || strcmp(fs.f_fstypename, "hfs") == 0;
}
#else
int lean_local_directory_times(const char *path) { (void)path; return 0; }
#endif
