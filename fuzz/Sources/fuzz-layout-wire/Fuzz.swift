import FuzzSupport

/// libFuzzer's entry point: one input, run through `FuzzHarness.layoutWire`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  FuzzHarness.layoutWire(bytes)
  return 0
}
