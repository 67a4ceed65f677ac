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

/* glibc marks a chunk it mapped on its own with bit 1 (IS_MMAPPED) of the size word just
   before the pointer it returns. */
static int is_mmapped(void *block) { return (((size_t *)block)[-1] & 2) != 0; }

int tenfoot_mmap_threshold_probe(void) {
  /* Freeing a mapped 4 MiB block raises glibc's dynamic threshold to 4 MiB, unless mallopt
     fixed it: then a 1 MiB block is still mapped (and returned to the system when freed). */
  void *large = malloc(4 << 20);
  if (large == NULL) return -1;
  free(large);
  void *block = malloc(1 << 20);
  if (block == NULL) return -1;
  int mapped = is_mmapped(block);
  free(block);
  return mapped;
}
#else
int tenfoot_fix_mmap_threshold(int bytes) {
  (void)bytes;
  return 1;
}

long long tenfoot_heap_in_use(void) { return -1; }

int tenfoot_mmap_threshold_probe(void) { return -1; }
#endif
