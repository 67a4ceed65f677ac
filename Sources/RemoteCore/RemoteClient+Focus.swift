import FocusEngine
import TenFootClient
import TenFootProtocol
import TerminalUI

extension RemoteClient {
  /// Asks the broker to focus an item or group of this remote's screen (programmatic focus);
  /// returns the focused item, or throws the broker's refusal (unknown, unavailable, trapped,
  /// ambiguous) as a sentence.
  public func requestFocus(_ target: FocusTarget) throws(RemoteError) -> PressResult {
    var request = Tenfoot_V1_FocusRequest()
    request.screenID = screen
    request.target =
      switch target {
      case .item(let id): .item(id)
      case .group(let id): .group(id)
      case .any(let id): .any(id)
      }
    switch try call(.focusRequest(request), what: "focus") {
    case .ack(let ack):
      return PressResult(name: "focus", acks: [InputAck(wire: ack)])
    default: throw .unexpectedReply(what: "focus")
    }
  }

  /// Runs a focus-debugger query on this remote's screen and returns the report's text,
  /// filtered for a terminal line by line (``TerminalText``).
  public func debug(_ query: DebugQuery) throws(RemoteError) -> String {
    var request = Tenfoot_V1_DebugRequest()
    request.screenID = screen
    request.query = .init(query)
    switch try call(.debugRequest(request), what: "debug") {
    case .debugReport(let report): return TerminalText.printable(report.text, newlines: true)
    default: throw .unexpectedReply(what: "debug")
    }
  }

  /// The size of this remote's screen's layout canvas, in points, from a snapshot of the
  /// session (the interactive remote maps the terminal's cells onto it).
  public func canvas() throws(RemoteError) -> (width: Double, height: Double) {
    var request = Tenfoot_V1_SnapshotRequest()
    request.screenID = screen
    switch try call(.snapshotRequest(request), what: "snapshot") {
    case .snapshot(let state)
    where state.layout.canvas.width > 0
      && state.layout.canvas.height > 0:
      return (state.layout.canvas.width, state.layout.canvas.height)
    default: throw .unexpectedReply(what: "snapshot")
    }
  }

  /// One request and its reply; a typed error reply becomes a `RemoteError`.
  private func call(_ body: Tenfoot_V1_Envelope.OneOf_Body, what: String) throws(RemoteError)
    -> Tenfoot_V1_Envelope.OneOf_Body
  {
    let reply: Tenfoot_V1_Envelope.OneOf_Body
    do {
      reply = try connection.request(body, timeout: timeout)
    } catch {
      throw .requestFailed(what: what, cause: error)
    }
    if case .error(let error) = reply {
      throw .refused(what: what, refusal: BrokerRefusal(wire: error))
    }
    return reply
  }
}
