import Dispatch
import Hummingbird
import Logging
import NIOCore
import ScreenCore

/// `GET /assets/<path>`: the app's images from its asset directory (`--assets DIR`), for the
/// page's `<img>`s.
///
/// - **Access**: the screen's access key, as the query parameter `key` — the mechanism of the
///   page's URL and of its `/ws` stream. An `<img>` cannot send headers, so the page appends
///   the key it was opened with. Missing or wrong: 403.
/// - **The file**: ``AssetDirectory``'s checks — the path by `ItemContent.imageProblem` (403),
///   its real path inside the directory's real path (403: a symlink out, say), a regular
///   file (403), there (404), at most ``AssetDirectory/maximumBytes`` (413), a PNG, JPEG, GIF
///   or WebP by its first bytes (415; SVG included). No asset directory: 404.
/// - **The answer**: the bytes with `Content-Type` from the signature, `X-Content-Type-Options:
///   nosniff`, `Cache-Control: private, max-age=300` (and the server's strict policy); a
///   refusal is a short plain-text reason and one throttled log line.
///
/// The file is read on a dispatch queue of its own, never on a NIO event loop thread (route
/// handlers already run on `ServerExecutor`'s threads; the hop keeps that true whatever
/// executor a handler runs on).
enum AssetRoute {
  /// The path prefix of assets.
  static let prefix = "/assets/"
  /// Where files are read.
  private static let files = DispatchQueue(label: "tenfoot.web-assets", attributes: .concurrent)

  /// Adds the route to `router`.
  static func add(
    to router: Router<BasicRequestContext>, assets: AssetDirectory?, accessKey: WebAccessKey,
    logger: Logger
  ) {
    let refused = ThrottledNotice("asset refused", logger: logger)
    router.get("/assets/**") { request, _ -> Response in
      let path = request.uri.path
      let reference = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : ""
      let result = await answer(
        reference, key: request.uri.queryParameters.get("key"), assets: assets,
        accessKey: accessKey)
      switch result {
      case .success(let image):
        return Response(
          status: .ok,
          headers: [
            .contentType: image.type.mediaType, .xContentTypeOptions: "nosniff",
            .cacheControl: "private, max-age=300",
          ],
          body: .init(byteBuffer: ByteBuffer(bytes: image.bytes)))
      case .failure(let refusal):
        return refusal.response(logging: "asset.path", reference, to: refused)
      }
    }
  }

  /// The image `reference` names, or why not: the key first (so a stranger learns nothing
  /// about the files), then the directory's checks, read off the event loop.
  static func answer(
    _ reference: String, key: String?, assets: AssetDirectory?, accessKey: WebAccessKey
  ) async -> Result<AssetDirectory.Image, AssetRefusal> {
    guard let key, accessKey.matches(key) else {
      return .failure(
        AssetRefusal(.forbidden, "missing or wrong key: open the URL tenfoot-screen printed"))
    }
    guard let assets else {
      return .failure(AssetRefusal(.notFound, "this screen serves no assets (--assets DIR)"))
    }
    return await withCheckedContinuation { continuation in
      files.async { continuation.resume(returning: assets.read(reference)) }
    }
  }
}

extension AssetRefusal {
  /// The plain-text answer refusing the file `path`, logged (throttled) under `field`.
  func response(logging field: String, _ path: String, to notice: ThrottledNotice) -> Response {
    notice.happened([
      field: "\(String(path.prefix(200)))", "status": "\(kind.status)", "reason": "\(reason)",
    ])
    return Response(
      status: HTTPResponse.Status(code: kind.status),
      headers: [.contentType: "text/plain; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: reason + "\n")))
  }
}
