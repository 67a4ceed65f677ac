import Dispatch
import Foundation
import Hummingbird
import Logging
import NIOCore
import ScreenCore

/// A developer's own page (`--app DIR`): `GET /` answers `DIR/index.html`, `GET /tenfoot.js`
/// the embedded module (``TenFootScript``), and `GET /<path>` the app's other files.
///
/// - **Access**: the screen's access key, as the query parameter `key` (the URL
///   tenfoot-screen prints) or the cookie `tenfoot-key` that the page's answer sets
///   (`HttpOnly`, `SameSite=Strict`), so the page's own `<script src>`, `<link href>` and
///   `<img src>` need no key in their URLs. Missing or wrong: 403.
/// - **The file**: ``AssetDirectory``'s checks (the path's parts, its real path inside the
///   directory's, a regular file, at most 8 MiB) and a type by its extension from a short list
///   (HTML, JavaScript, CSS, JSON, images, fonts, text); others 415.
/// - **The answer**: the page with the web screen's policy (`PageSecurity`: scripts and
///   styles from the page's own origin, so no inline `<script>` or `style` attributes;
///   sockets to its own host), every file with `nosniff` and `no-store` (an app being
///   written changes under the browser).
enum AppPageRoute {
  /// The access cookie's name.
  static let cookie = "tenfoot-key"
  /// Where files are read.
  private static let files = DispatchQueue(label: "tenfoot.web-app-files", attributes: .concurrent)

  /// Content types by extension.
  static let types: [String: String] = [
    "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
    "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
    "css": "text/css; charset=utf-8", "json": "application/json",
    "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
    "webp": "image/webp", "svg": "image/svg+xml", "ico": "image/x-icon",
    "woff2": "font/woff2", "woff": "font/woff", "txt": "text/plain; charset=utf-8",
  ]

  /// Adds the routes to `router`.
  static func add(
    to router: Router<BasicRequestContext>, app: AssetDirectory, accessKey: WebAccessKey,
    logger: Logger
  ) {
    let refused = ThrottledNotice("app file refused", logger: logger)
    router.get("/tenfoot.js") { request, _ -> Response in
      guard admitted(request, accessKey: accessKey) else {
        return AssetRefusal(.forbidden, keyReason).response(
          logging: "app.path", "tenfoot.js", to: refused)
      }
      return Response(
        status: .ok,
        headers: [
          .contentType: types["js"] ?? "", .xContentTypeOptions: "nosniff",
          .cacheControl: "no-store",
        ],
        body: .init(byteBuffer: ByteBuffer(string: TenFootScript.source)))
    }
    router.get("/") { request, _ -> Response in
      await file("index.html", request, app: app, accessKey: accessKey, refused: refused)
    }
    router.get("/**") { request, _ -> Response in
      let reference = String(request.uri.path.drop { $0 == "/" })
      return await file(reference, request, app: app, accessKey: accessKey, refused: refused)
    }
  }

  private static let keyReason =
    "missing or wrong key: open the URL tenfoot-screen printed (it carries ?key=…)"

  /// Whether `request` presents the key, in its query or its cookie.
  static func admitted(_ request: Request, accessKey: WebAccessKey) -> Bool {
    if let key = request.uri.queryParameters.get("key"), accessKey.matches(key) { return true }
    return hasKeyCookie(request.headers, accessKey: accessKey)
  }

  /// Whether `headers` carry the key cookie (which a browser sends once it loaded the page
  /// with the key).
  static func hasKeyCookie(_ headers: HTTPFields, accessKey: WebAccessKey) -> Bool {
    for header in headers[values: .cookie] {
      for pair in header.split(separator: ";") {
        let parts = pair.trimmingCharacters(in: .whitespaces).split(
          separator: "=", maxSplits: 1)
        if parts.count == 2, parts[0] == cookie, accessKey.matches(String(parts[1])) {
          return true
        }
      }
    }
    return false
  }

  /// The file `reference` names in `app`, or why not.
  private static func file(
    _ reference: String, _ request: Request, app: AssetDirectory, accessKey: WebAccessKey,
    refused: ThrottledNotice
  ) async -> Response {
    guard admitted(request, accessKey: accessKey) else {
      return AssetRefusal(.forbidden, keyReason).response(
        logging: "app.path", reference, to: refused)
    }
    let name = reference.split(separator: "/").last.map(String.init) ?? reference
    let fileExtension =
      name.split(separator: ".").count > 1
      ? name.split(separator: ".").last.map { $0.lowercased() } : nil
    guard let type = fileExtension.flatMap({ types[$0] }) else {
      let known = types.keys.sorted().joined(separator: ", ")
      return AssetRefusal(
        .unsupportedType, "not a file type the app page serves (\(known))"
      ).response(logging: "app.path", reference, to: refused)
    }
    let result = await withCheckedContinuation { continuation in
      files.async { continuation.resume(returning: app.readFile(reference)) }
    }
    switch result {
    case .failure(let problem):
      return problem.response(logging: "app.path", reference, to: refused)
    case .success(let bytes) where reference == "index.html":
      var response = PageSecurity.page(String(decoding: bytes, as: UTF8.self), for: request)
      if let key = request.uri.queryParameters.get("key"), accessKey.matches(key) {
        response.headers[.setCookie] =
          "\(cookie)=\(accessKey.hex); Path=/; HttpOnly; SameSite=Strict"
      }
      return response
    case .success(let bytes):
      return Response(
        status: .ok,
        headers: [.contentType: type, .xContentTypeOptions: "nosniff", .cacheControl: "no-store"],
        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
  }
}
