// Starting a child as tack starts every one (see ChildProcess.swift): posix_spawn with its own
// process group, a working directory, chosen file descriptors, and the signal dispositions and
// mask given. A C function because posix_spawn_file_actions_addchdir_np is hidden from Swift.
#ifndef CSPAWN_H
#define CSPAWN_H

#include <signal.h>
#include <sys/types.h>

/// Starts `path` with `argv` and `envp` in `directory` (NULL: this one), in a new process
/// group of its own when `new_group` is set. `in_fd` < 0 reads /dev/null; `out_fd` and
/// `err_fd` become its standard output and error. Signals in `defaults` get their default
/// action and `mask` is its signal mask. No other descriptor of this process reaches it,
/// close-on-exec or not (glibc 2.34 and later, and macOS). Returns 0 and sets `*pid`, or an
/// errno value.
int tack_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
               int in_fd, int out_fd, int err_fd, const sigset_t *mask, const sigset_t *defaults, int new_group);

#endif
