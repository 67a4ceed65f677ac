import Glibc

extension RGB {
  /// The WCAG 2.x relative luminance, 0 (black) to 1 (white): each sRGB channel linearised
  /// (`c/12.92` up to 0.04045, else `((c+0.055)/1.055)^2.4`), weighted 0.2126 R, 0.7152 G,
  /// 0.0722 B.
  public var relativeLuminance: Double {
    func linear(_ channel: UInt8) -> Double {
      let c = Double(channel) / 255
      return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
  }

  /// The WCAG 2.x contrast ratio with `other`, 1 to 21: `(L1 + 0.05) / (L2 + 0.05)` with the
  /// lighter colour's luminance on top. AA asks 4.5 for text and 3 for focus indicators and
  /// other parts of the interface.
  public func contrastRatio(with other: RGB) -> Double {
    let a = relativeLuminance
    let b = other.relativeLuminance
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)
  }

  /// This colour laid over `background` with `alpha` (0 transparent, 1 opaque), per channel in
  /// sRGB as browsers composite.
  public func over(_ background: RGB, alpha: Double) -> RGB {
    func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
      UInt8(max(0, min(255, (Double(top) * alpha + Double(bottom) * (1 - alpha)).rounded())))
    }
    return RGB(
      mix(red, background.red), mix(green, background.green), mix(blue, background.blue))
  }
}
