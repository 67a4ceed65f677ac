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
