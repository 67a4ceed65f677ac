import Foundation

/// Reads QR codes from images with Debian's `zbarimg` (zbar-tools): the phone remote's
/// end-to-end test and the encoder's tests check what a real reader sees.
public enum QRCodeReader {
  /// The `zbarimg` binary, if installed.
  public static let zbarimg = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// What `zbarimg` reads from `image` (a PBM or PNG file): the payload exactly (only the
  /// newline zbarimg ends it with is removed), or nil if it finds no code.
  public static func decode(_ image: String) throws -> String? {
    guard let zbarimg else {
      throw ChildProcessError(description: "zbarimg is not installed (apt-get install zbar-tools)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: zbarimg)
    process.arguments = ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", image]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    var text = String(decoding: data, as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    return text
  }
}
