import SystemCalls
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Retrying a system call a signal interrupted")
struct SystemCallTests {
  @Test("a call interrupted twice is made again until it answers")
  func interruptedThenAnswered() {
    var calls = 0
    let result = SystemCall.retryingInterrupts { () -> Int32 in
      calls += 1
      if calls < 3 {
        errno = EINTR
        return -1
      }
      return 7
    }
    #expect(result == 7)
    #expect(calls == 3)
  }

  @Test("any other failure goes back to the caller at once, errno intact")
  func otherFailureReturned() {
    var calls = 0
    let result = SystemCall.retryingInterrupts { () -> Int in
      calls += 1
      errno = EAGAIN
      return -1
    }
    #expect(result == -1)
    #expect(errno == EAGAIN)
    #expect(calls == 1)
  }
}
