#define _GNU_SOURCE
#include "CSpawn.h"
#include <fcntl.h>
#include <spawn.h>
#include <stddef.h>

int tack_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
               int in_fd, int out_fd, int err_fd, const sigset_t *mask, const sigset_t *defaults, int new_group) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) return status;
    status = posix_spawnattr_init(&attributes);
    if (status != 0) { posix_spawn_file_actions_destroy(&actions); return status; }
    if (in_fd < 0) status = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    else status = posix_spawn_file_actions_adddup2(&actions, in_fd, 0);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
    if (status == 0 && directory != NULL) status = posix_spawn_file_actions_addchdir_np(&actions, directory);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    if (status == 0) status = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
    if (status == 0) status = posix_spawnattr_setpgroup(&attributes, 0);
    if (status == 0) status = posix_spawnattr_setsigmask(&attributes, mask);
    if (status == 0) status = posix_spawnattr_setsigdefault(&attributes, defaults);
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    if (new_group) flags |= POSIX_SPAWN_SETPGROUP;
#ifdef POSIX_SPAWN_CLOEXEC_DEFAULT
    flags |= POSIX_SPAWN_CLOEXEC_DEFAULT;
#endif
    if (status == 0) status = posix_spawnattr_setflags(&attributes, flags);
    if (status == 0) status = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return status;
}
