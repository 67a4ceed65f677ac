import CZeroMQ

/// The ZeroMQ socket types TenFoot uses (draft types are not in Debian's libzmq).
public enum SocketType: Sendable, Hashable {
  case pair, publisher, subscriber, request, reply, dealer, router, pull, push, xpublisher,
    xsubscriber

  var rawValue: Int32 {
    switch self {
    case .pair: ZMQ_PAIR
    case .publisher: ZMQ_PUB
    case .subscriber: ZMQ_SUB
    case .request: ZMQ_REQ
    case .reply: ZMQ_REP
    case .dealer: ZMQ_DEALER
    case .router: ZMQ_ROUTER
    case .pull: ZMQ_PULL
    case .push: ZMQ_PUSH
    case .xpublisher: ZMQ_XPUB
    case .xsubscriber: ZMQ_XSUB
    }
  }
}
