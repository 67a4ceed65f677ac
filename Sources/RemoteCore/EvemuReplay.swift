import InputDevices
import TenFootProtocol

/// Plays an `evemu-record` recording through a ``DeviceSession`` in real time: each event's
/// time is its offset in the recording added to the moment the replay starts, so the gaps,
/// holds and repeats are the recording's, to the microsecond.
public enum EvemuReplay {
  /// Plays `recording`; keys still down when it ends are released at its last event's time.
  public static func play(_ recording: EvemuRecording, through session: DeviceSession)
    throws(RemoteError)
  {
    guard let first = recording.events.first?.time else { return }
    let start = MonotonicClock.now
    var last = start
    for var event in recording.events {
      event.time = start.nanoseconds + (event.time - first)
      try session.tick(until: event.instant)
      RemoteClient.wait(until: event.instant)
      try session.handle(event)
      last = event.instant
    }
    try session.releaseAll(at: last)
  }
}
