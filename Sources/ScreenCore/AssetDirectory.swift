import FocusEngine
import Foundation
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// The app's asset directory (`tenfoot-screen --assets DIR`): where the relative `image` of a
/// layout's items is read from, by the web page server (`GET /assets/<path>`) and the SVG
/// renderer (embedded as `data:` URIs).
///
/// An image is served only when every check passes, in this order:
/// 1. the reference is a relative path by ``ItemContent/imageProblem(_:)`` (no `..`, no `/`
///    at the start, only `A-Z a-z 0-9 . _ -` in its parts): else forbidden;
/// 2. its real path (`realpath`, every symlink resolved) exists (else not found) and lies
///    inside the directory's real path, so a symlink pointing out is refused (forbidden);
/// 3. it is a regular file (opened without following a last symlink and without blocking, so
///    a FIFO cannot hang the reader): else forbidden;
/// 4. it holds at most ``maximumBytes``: else too large;
/// 5. its first bytes are a PNG, JPEG, GIF or WebP signature (``ImageType``): else an
///    unsupported type. SVG is refused too: it can carry scripts.
public struct AssetDirectory: Sendable, Equatable {
  /// The largest image served or embedded: 8 MiB.
  public static let maximumBytes = 8 * 1024 * 1024

  /// The directory as given.
  public let path: String
  /// Its real path: absolute, every symlink resolved.
  public let realPath: String

  /// The directory at `path`; throws when it does not exist or is not a directory.
  public init(path: String) throws(AssetRefusal) {
    guard let real = Self.realPath(of: path) else {
      throw AssetRefusal(.notFound, "asset directory \(path): \(String(cString: strerror(errno)))")
    }
    var info = stat()
    guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw AssetRefusal(.forbidden, "asset directory \(path): not a directory")
    }
    self.path = path
    self.realPath = real
  }

  /// An image's type, from the signature in its first bytes.
  public enum ImageType: String, Sendable, Equatable, CaseIterable {
    case png = "image/png"
    case jpeg = "image/jpeg"
    case gif = "image/gif"
    case webp = "image/webp"

    /// The media type (`image/png`, …).
    public var mediaType: String { rawValue }

    /// The type whose signature `bytes` start with, or nil (SVG, text and every other kind).
    public init?(sniffing bytes: some Collection<UInt8>) {
      let head = Array(bytes.prefix(12))
      func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
        head.count >= offset + signature.count
          && Array(head[offset..<offset + signature.count]) == signature
      }
      if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
        self = .png
      } else if starts([0xFF, 0xD8, 0xFF]) {
        self = .jpeg
      } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
        self = .gif
      } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
        self = .webp
      } else {
        return nil
      }
    }
  }

  /// An image read whole, with its type.
  public struct Image: Sendable, Equatable {
    /// The file's bytes.
    public var bytes: [UInt8]
    /// Its type, from its signature.
    public var type: ImageType

    /// The image as a `data:` URI (base64).
    public var dataURI: String {
      "data:\(type.mediaType);base64," + Data(bytes).base64EncodedString()
    }
  }

  /// The real path of the file `reference` names, when checks 1–3 pass.
  public func locate(_ reference: String) -> Result<String, AssetRefusal> {
    if let problem = ItemContent.imageProblem(reference) {
      return .failure(AssetRefusal(.forbidden, "not an asset path: \(problem)"))
    }
    if reference.hasPrefix("https://") {
      return .failure(AssetRefusal(.forbidden, "an https: URL is not a file of the directory"))
    }
    guard let real = Self.realPath(of: realPath + "/" + reference) else {
      return .failure(
        errno == ENOENT || errno == ENOTDIR
          ? AssetRefusal(.notFound, "no such file")
          : AssetRefusal(.forbidden, "cannot resolve: \(String(cString: strerror(errno)))"))
    }
    let inside = realPath == "/" ? "/" : realPath + "/"
    guard real.hasPrefix(inside), real.count > inside.count else {
      return .failure(AssetRefusal(.forbidden, "its real path leaves the asset directory"))
    }
    return .success(real)
  }

  /// The image `reference` names, read whole, when every check passes. Blocks on file I/O:
  /// call it off any event loop (the page server hops to a thread of its own).
  public func read(_ reference: String) -> Result<Image, AssetRefusal> {
    readFile(reference).flatMap { bytes in
      guard let type = ImageType(sniffing: bytes) else { return .failure(Self.unsupported) }
      return .success(Image(bytes: bytes, type: type))
    }
  }

  /// The bytes of any file `reference` names, when checks 1–4 pass (no image sniffing: a web
  /// app's own pages, scripts and stylesheets; the caller decides the content type). Blocks on
  /// file I/O, as `read` does.
  public func readFile(_ reference: String) -> Result<[UInt8], AssetRefusal> {
    open(reference) { descriptor, size in
      var bytes = [UInt8](repeating: 0, count: size)
      var done = 0
      while done < size {
        let count = bytes.withUnsafeMutableBytes { buffer in
          SystemCall.retryingInterrupts {
            Glibc.read(descriptor, buffer.baseAddress.map { $0 + done }, size - done)
          }
        }
        if count < 0 && errno == EAGAIN {
          // A regular file never says EAGAIN; a changed one is read again next time.
          return .failure(AssetRefusal(.forbidden, "the file would block"))
        }
        guard count > 0 else { break }
        done += count
      }
      return .success(Array(bytes.prefix(done)))
    }
  }

  /// The type of the image `reference` names, when every check passes, from its first bytes
  /// only (the start-up check: it does not read whole files).
  public func inspect(_ reference: String) -> Result<ImageType, AssetRefusal> {
    open(reference) { descriptor, _ in
      var head = [UInt8](repeating: 0, count: 12)
      let count = head.withUnsafeMutableBytes { buffer in
        SystemCall.retryingInterrupts { Glibc.read(descriptor, buffer.baseAddress, 12) }
      }
      guard count > 0, let type = ImageType(sniffing: head.prefix(count)) else {
        return .failure(Self.unsupported)
      }
      return .success(type)
    }
  }

  private static let unsupported = AssetRefusal(
    .unsupportedType, "not a PNG, JPEG, GIF or WebP image (by its first bytes)")

  /// Locates `reference`, opens it (not following a last symlink, never blocking), checks it
  /// is a regular file within the size limit, and hands the descriptor and size to `body`.
  private func open<T>(
    _ reference: String, _ body: (Int32, Int) -> Result<T, AssetRefusal>
  ) -> Result<T, AssetRefusal> {
    let real: String
    switch locate(reference) {
    case .success(let found): real = found
    case .failure(let refusal): return .failure(refusal)
    }
    let descriptor = Glibc.open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard descriptor >= 0 else {
      return .failure(
        errno == ENOENT
          ? AssetRefusal(.notFound, "no such file")
          : AssetRefusal(.forbidden, "cannot open: \(String(cString: strerror(errno)))"))
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      return .failure(AssetRefusal(.forbidden, "not a regular file"))
    }
    guard info.st_size <= Self.maximumBytes else {
      return .failure(
        AssetRefusal(.tooLarge, "\(info.st_size) bytes (at most \(Self.maximumBytes))"))
    }
    return body(descriptor, Int(info.st_size))
  }

  /// `realpath(3)` of `path`, or nil (errno says why).
  private static func realPath(of path: String) -> String? {
    guard let resolved = Glibc.realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}

/// Why an asset is not served: the kind picks the HTTP status.
public struct AssetRefusal: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kind of refusal.
  public enum Kind: Sendable, Equatable {
    /// Not a path inside the directory, not a regular file (403).
    case forbidden
    /// No such file (404).
    case notFound
    /// Over ``AssetDirectory/maximumBytes`` (413).
    case tooLarge
    /// Not a PNG, JPEG, GIF or WebP by its signature (415).
    case unsupportedType

    /// The HTTP status for this kind.
    public var status: Int {
      switch self {
      case .forbidden: 403
      case .notFound: 404
      case .tooLarge: 413
      case .unsupportedType: 415
      }
    }
  }

  /// The kind of refusal.
  public var kind: Kind
  /// A short reason, for people.
  public var reason: String

  /// A refusal of `kind` for `reason`.
  public init(_ kind: Kind, _ reason: String) {
    self.kind = kind
    self.reason = reason
  }

  /// The reason.
  public var description: String { reason }
}

extension AssetDirectory {
  /// Why the layout's images cannot be shown, one line per item whose relative `image` is not
  /// a PNG, JPEG, GIF or WebP file inside `assets` (`https:` images are the page's to load),
  /// like `items[3].image: "posters/x.png" is not a file inside the asset directory /srv/a
  /// (no such file)`; empty when every image is there. Without `assets`, any relative image
  /// is a problem that says to pass `--assets`.
  public static func layoutProblems(_ layout: Layout, assets: AssetDirectory?) -> [String] {
    var problems: [String] = []
    for (index, item) in layout.items.enumerated() {
      guard let image = item.content.image, !image.hasPrefix("https://") else { continue }
      let quoted = "items[\(index)].image: \"\(image)\""
      guard let assets else {
        problems.append(
          "\(quoted) is a file of the app's asset directory: pass --assets DIR to say where it is")
        continue
      }
      if case .failure(let refusal) = assets.inspect(image) {
        problems.append(
          "\(quoted) is not a file inside the asset directory \(assets.path) (\(refusal))")
      }
    }
    return problems
  }
}
