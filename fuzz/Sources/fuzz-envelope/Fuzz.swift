import FuzzSupport

/// libFuzzer's entry point: one input, run through `FuzzHarness.envelope`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  FuzzHarness.envelope(bytes)
  return 0
}
