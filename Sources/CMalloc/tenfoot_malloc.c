#include "tenfoot_malloc.h"

/* A libc header before any check: __GLIBC__ is defined by glibc's own headers (features.h),
   so testing it with none included was always false and the threshold was never set. */
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

int tenfoot_fix_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

long long tenfoot_heap_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return (long long)(info.uordblks + info.hblkhd);
}
#else
int tenfoot_fix_mmap_threshold(int bytes) {
  (void)bytes;
  return 0; /* Nothing was fixed: a test tells this branch from mallopt's (which returns 1). */
}

long long tenfoot_heap_in_use(void) { return -1; }
#endif
