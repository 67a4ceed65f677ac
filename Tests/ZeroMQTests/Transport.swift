import Foundation
import ZeroMQ

/// The three transports every pattern is tested over.
enum Transport: String, CaseIterable, CustomStringConvertible {
  case inproc, ipc, tcp

  var description: String { rawValue }

  /// A fresh endpoint to bind; for tcp a wildcard port, resolved with `lastEndpoint`.
  func bindEndpoint() -> String {
    let unique = UUID().uuidString.prefix(8)
    switch self {
    case .inproc: return "inproc://test-\(unique)"
    case .ipc: return "ipc:///tmp/tf-zmq-\(unique)"
    case .tcp: return "tcp://127.0.0.1:*"
    }
  }
}

extension Socket {
  /// Binds to a fresh endpoint of `transport` and returns the endpoint to connect to.
  func bindFresh(_ transport: Transport) throws -> String {
    try bind(transport.bindEndpoint())
    return try lastEndpoint
  }

  /// Receives within `milliseconds` or fails the test with a clear message.
  func receiveMultipart(within milliseconds: Int) throws -> [[UInt8]] {
    var poller = Poller()
    poller.add(self)
    try poller.poll(timeout: .milliseconds(milliseconds))
    guard poller.isReadable(0), let frames = try receiveMultipart(dontWait: true) else {
      throw TimedOut(milliseconds: milliseconds)
    }
    return frames
  }
}

struct TimedOut: Error, CustomStringConvertible {
  let milliseconds: Int
  var description: String { "nothing received within \(milliseconds) ms" }
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
