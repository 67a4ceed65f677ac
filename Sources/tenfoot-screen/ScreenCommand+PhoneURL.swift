import Foundation
import PhoneRemote

extension ScreenCommand {
  /// Prints the phone remote's URL for the operator once, when the page server first listens:
  /// `tenfoot-screen phone http://HOST:PORT/phone?token=…`, where the web renderer prints its
  /// page's URL (standard output), or on standard error when standard output carries headless
  /// frames. It holds the code's one-time token, so it goes to the log only at debug level;
  /// the token lets one phone in and lasts 5 minutes, after which the screen's code shows the
  /// next (the log's notice says when it changes).
  func printPhoneURL(_ phone: PhoneRemotes, kind: RendererKind) {
    let toStandardError = kind == .headless && frames == "-"
    let first = FirstCall()
    phone.observeURL { url in
      guard first.claim() else { return }
      if toStandardError {
        FileHandle.standardError.write(Data("tenfoot-screen phone \(url)\n".utf8))
      } else {
        print("tenfoot-screen phone \(url)")
        fflush(nil)
      }
    }
  }
}
