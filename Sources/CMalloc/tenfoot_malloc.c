#include "tenfoot_malloc.h"

#if defined(__GLIBC__)
#include <malloc.h>
int tenfoot_fix_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
#else
int tenfoot_fix_mmap_threshold(int bytes) {
  (void)bytes;
  return 1;
}
#endif

/* Decided apart from the block above: __GLIBC__ is only defined once a libc header is in. */
#if defined(__linux__)
#include <malloc.h>
#endif
#if defined(__GLIBC__)
long long tenfoot_heap_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return (long long)(info.uordblks + info.hblkhd);
}
#else
long long tenfoot_heap_in_use(void) { return -1; }
#endif
