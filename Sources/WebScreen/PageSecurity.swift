import Foundation
import Hummingbird
import TenFootSecurity

/// The headers that keep the page server's pages to themselves: a Content Security Policy
/// (scripts and styles only the page's own, with a fresh nonce per response; sockets only to
/// the page's own host; images the page's own, `data:` and `https:` ones, for items' images
/// given as URLs; never framed), no referrer (the URLs carry the access key and phone
/// tokens), and no content sniffing.
///
/// The pages stay single documents: their `<script>` and `<style>` elements carry
/// `nonceAttribute`, which `page` fills with the response's nonce, and the policy lets in only
/// elements with that nonce (the scripts set styles through the CSSOM, which the policy allows;
/// no markup carries `style` attributes).
package enum PageSecurity {
  /// The placeholder in the pages' templates.
  static let nonceMarker = "TENFOOT-CSP-NONCE"
  /// The attribute every `<script>` and `<style>` of a page template carries.
  package static let nonceAttribute = #" nonce="\#(nonceMarker)""#

  /// Headers on every response (pages, refusals, errors).
  static let common: HTTPFields = {
    var fields: HTTPFields = [.xContentTypeOptions: "nosniff"]
    for (name, value) in [("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY")] {
      if let name = HTTPFields.Element.Name(name) { fields[name] = value }
    }
    return fields
  }()

  /// The policy for responses that are not pages: nothing loads, nothing frames them.
  static let strictPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"

  /// A fresh nonce: 128 random bits in base64.
  static func nonce() -> String {
    Data(PairingProof.randomBytes(16)).base64EncodedString()
  }

  /// The policy for a page answered with `nonce` to a request for `host` (its `Host`, nil or
  /// odd: sockets to the page's origin only, as `'self'` means in current browsers).
  static func policy(nonce: String, host: String?) -> String {
    var connect = "'self'"
    let hostCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
    if let host, !host.isEmpty, host.count <= 255, host.allSatisfy(hostCharacters.contains) {
      connect += " ws://\(host) wss://\(host)"
    }
    return [
      "default-src 'self'", "script-src 'self' 'nonce-\(nonce)'",
      "style-src 'self' 'nonce-\(nonce)'", "img-src 'self' data: https:", "connect-src \(connect)",
      "object-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")
  }

  /// `template` (a page with `nonceAttribute`s) answered to `request` with `status`: a fresh
  /// nonce in the page and in its policy, never cached.
  package static func page(
    _ template: String, for request: Request, status: HTTPResponse.Status = .ok
  )
    -> Response
  {
    let nonce = nonce()
    var headers: HTTPFields = [
      .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
      .contentSecurityPolicy: policy(nonce: nonce, host: request.head.authority),
    ]
    headers.append(contentsOf: common)
    return Response(
      status: status, headers: headers,
      body: .init(
        byteBuffer: ByteBuffer(
          string: template.replacingOccurrences(of: nonceMarker, with: nonce))))
  }
}

/// Adds `PageSecurity`'s headers to every response the router makes, errors included; a
/// response without a policy of its own gets the strict one.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var response: Response
    do {
      response = try await next(request, context)
    } catch let error as any HTTPResponseError {
      response = try error.response(from: request, context: context)
    }
    for field in PageSecurity.common where response.headers[field.name] == nil {
      response.headers.append(field)
    }
    if response.headers[.contentSecurityPolicy] == nil {
      response.headers[.contentSecurityPolicy] = PageSecurity.strictPolicy
    }
    return response
  }
}
