import CMalloc
import Testing

/// The broker fixes glibc's mmap threshold at start-up (`tenfoot-broker serve`), so freed
/// multi-MiB messages go back to the system instead of staying in the heap after a flood.
@Suite("glibc's mmap threshold is fixed")
struct MallocThresholdTests {
  @Test("the shim is built against glibc and mallopt accepts the threshold")
  func fixed() {
    // 1 is mallopt's success; the shim's fallback (no glibc) answers 0. The shim that tested
    // __GLIBC__ before including any libc header always compiled the fallback, which then
    // answered 1 as well, and nothing noticed. (Whether a later block is really mapped depends
    // on what the heap already holds, so it is not asserted here.)
    #expect(tenfoot_fix_mmap_threshold(256 * 1024) == 1)
  }
}
