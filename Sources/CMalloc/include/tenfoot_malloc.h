#ifndef TENFOOT_MALLOC_H
#define TENFOOT_MALLOC_H
/* glibc's mallopt, which Swift's Glibc module does not export (malloc.h is not in it). */

/* Fixes the size from which glibc allocates a block as its own mapping (returned to the system
   when freed) instead of letting glibc raise it after each large free. Returns mallopt's result
   (1 on success), or 0 where there is no glibc (nothing was fixed). */
int tenfoot_fix_mmap_threshold(int bytes);

/* The bytes the heap has handed out now (glibc's mallinfo2: in use plus mapped blocks), for
   the benchmarks' memory figures; -1 where there is no glibc. */
long long tenfoot_heap_in_use(void);

#endif
