#define _GNU_SOURCE
#include "tenfoot_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

int tenfoot_spawn(
    pid_t *pid, const char *path, char *const argv[], char *const envp[], int stdin_fd,
    int stdout_fd, int stderr_fd) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  int result = posix_spawn_file_actions_init(&actions);
  if (result != 0) return result;
  result = posix_spawnattr_init(&attributes);
  if (result != 0) {
    posix_spawn_file_actions_destroy(&actions);
    return result;
  }
  sigset_t nothing;
  sigemptyset(&nothing);
  // dup2 onto 0–2 clears close-on-exec on the copies (glibc does so even when the numbers
  // are equal); everything from 3 up is closed.
  if ((result = posix_spawn_file_actions_adddup2(&actions, stdin_fd, STDIN_FILENO)) == 0
      && (result = posix_spawn_file_actions_adddup2(&actions, stdout_fd, STDOUT_FILENO)) == 0
      && (result = posix_spawn_file_actions_adddup2(&actions, stderr_fd, STDERR_FILENO)) == 0
      && (result = posix_spawn_file_actions_addclosefrom_np(&actions, 3)) == 0
      && (result = posix_spawnattr_setsigmask(&attributes, &nothing)) == 0
      && (result = posix_spawnattr_setpgroup(&attributes, 0)) == 0
      && (result = posix_spawnattr_setflags(
              &attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP)) == 0) {
    result = posix_spawn(pid, path, &actions, &attributes, argv, envp);
  }
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  return result;
}

int tenfoot_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC) == 0 ? 0 : errno; }

int tenfoot_open_null(void) { return open("/dev/null", O_RDONLY | O_CLOEXEC); }
