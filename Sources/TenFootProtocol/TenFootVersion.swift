/// The TenFoot release.
public enum TenFootVersion {
  /// The version string every program prints and sends.
  public static let string = "0.1.0"
}
