import CMalloc
import Testing

/// The broker fixes glibc's mmap threshold at start-up (`tenfoot-broker serve`), so freed
/// multi-MiB messages go back to the system instead of staying in the heap after a flood.
@Suite("glibc's mmap threshold is fixed")
struct MallocThresholdTests {
  @Test("after the fix, a freed 4 MiB block does not raise the threshold over 1 MiB blocks")
  func fixed() {
    #expect(tenfoot_fix_mmap_threshold(256 * 1024) == 1, "mallopt refused the threshold")
    // Built against glibc here: 1 means the 1 MiB block was its own mapping. The shim that
    // tested __GLIBC__ before including any libc header compiled to a no-op and gave 0.
    #expect(tenfoot_mmap_threshold_probe() == 1)
  }
}
