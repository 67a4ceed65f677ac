import FuzzSupport

/// libFuzzer's entry point: one input, run through `StringsHarness.run`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  StringsHarness.run(bytes)
  return 0
}
