#ifndef TENFOOT_WIDTH_H
#define TENFOOT_WIDTH_H

#include <stdint.h>

/// The number of terminal columns `scalar` takes by the C library's wcwidth in a UTF-8
/// locale (C.UTF-8, else en_US.UTF-8), whatever the process's own locale: 0 for combining
/// and zero-width characters, 1 or 2 for printable ones, -1 for non-printable ones (controls,
/// unassigned code points). -2 if no UTF-8 locale is installed (the caller falls back).
/// Thread-safe: the locale is made once and used per call with uselocale.
int tenfoot_wcwidth(uint32_t scalar);

#endif
