#ifndef TENFOOT_SPAWN_H
#define TENFOOT_SPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (NULL-terminated) the way a shell or service manager
/// does: its standard input, output and error on `stdin_fd`, `stdout_fd` and `stderr_fd`,
/// every other descriptor closed (`posix_spawn_file_actions_addclosefrom_np`, so a child can
/// never hold another child's pipe open), no signal blocked, in a process group of its own.
/// Returns 0 and sets `*pid`, or an errno value.
///
/// In C because glibc's `addclosefrom_np` is only declared under _GNU_SOURCE, which Swift's
/// Glibc module does not define.
int tenfoot_spawn(
    pid_t *pid, const char *path, char *const argv[], char *const envp[], int stdin_fd,
    int stdout_fd, int stderr_fd);

/// `pipe2(fds, O_CLOEXEC)`: a pipe no exec'd program inherits unless it is dup'd onto 0–2.
/// Returns 0, or an errno value.
int tenfoot_pipe_cloexec(int fds[2]);

/// `open("/dev/null", O_RDONLY | O_CLOEXEC)`: the descriptor, or -1 with errno set.
int tenfoot_open_null(void);

#endif
