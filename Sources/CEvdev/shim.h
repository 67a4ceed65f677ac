#ifndef TENFOOT_CEVDEV_SHIM_H
#define TENFOOT_CEVDEV_SHIM_H
/* libevdev (Debian libevdev-dev): reading /dev/input/event* nodes, SYN_DROPPED resync, grabs. */
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <errno.h>
#include <fcntl.h>
#endif
