import FocusEngine

/// The broker's rules, pure: screen sessions, input, programmatic focus, layout patches, the
/// focus debugger and what to keep across restarts. One request and the time it arrived in;
/// one reply and the effects (publications, records to persist) out. No sockets, no files, no
/// clock: the runtime (`BrokerCore`) maps the wire and carries the effects out.
///
/// A value. Requests may be handled in batches whose changes the runtime makes durable
/// together; a batch it could not make durable is undone by its token (`BrokerDomain+Batch`).
public struct BrokerDomain: Sendable, Equatable {
  /// Changes on every broker start so screens know to resync.
  public let epoch: UInt64
  /// The broker's name and version, sent in Welcome.
  public let name: String
  /// Layout limit: more items than this are refused.
  public let maxItems: Int
  /// At most this many screen ids one screen key may own by claiming them (a key cannot make
  /// the broker hold an unbounded number of sessions); the operator may bind more.
  public let screensPerKey: Int
  /// Sessions by screen id.
  public internal(set) var sessions: [String: ScreenSession] = [:]
  /// Whether the broker keeps sessions across restarts: if so, every acknowledged change of a
  /// session's durable values comes with a `persist` effect.
  public let persists: Bool
  /// What is durable (or about to be) per screen: applied to a session registered anew, and
  /// compared with each session after a request to decide what to persist. Empty unless
  /// `persists`.
  public internal(set) var records: [String: SessionRecord]
  /// Screen id → when a screen last showed it was alive (registered, asked for a snapshot or
  /// sent a heartbeat).
  public private(set) var lastSeen: [String: BrokerInstant] = [:]
  /// Sessions dropped for want of a screen, so input for them gets SCREEN_GONE (bounded).
  public private(set) var gone: [String] = []
  /// At most this many dropped sessions are remembered as gone.
  public static let rememberedGone = 1000
  /// How long an activation holds the inputs that follow for the app's reaction.
  public let reactionDeadline: Duration
  /// Screens holding inputs for their app's reaction.
  public internal(set) var holding: Set<String> = []
  /// The last token given to a held request.
  var lastToken: UInt64 = 0
  /// The batch being recorded, if any (see `beginBatch`).
  var batch: Batch?
  /// The batch being committed while another is open on top of it, if any (see `seal`).
  var sealed: Batch?
  /// The last batch token given.
  var lastBatch: UInt64 = 0

  /// A broker with no sessions. With `records` (the sessions kept from an earlier run, maybe
  /// none) it persists; with nil it keeps nothing across restarts.
  public init(
    epoch: UInt64, name: String, maxItems: Int = Layout.maximumItemCount, screensPerKey: Int = 16,
    records: [String: SessionRecord]? = nil, reactionDeadline: Duration = .milliseconds(250)
  ) {
    self.reactionDeadline = reactionDeadline
    self.epoch = epoch
    self.name = name
    self.maxItems = maxItems
    self.screensPerKey = screensPerKey
    self.persists = records != nil
    self.records = records ?? [:]
  }

  /// What handling one request produced.
  public struct Outcome: Sendable, Equatable {
    /// The reply for the requester.
    public var reply: BrokerReply
    /// Work for the runtime, in order: records to persist, then state to publish.
    public var effects: [BrokerEffect] = []
    /// A press id to record as applied, in the same transaction as the records
    /// (`handle(_:press:from:owners:at:)`). A field, not an effect: most presses publish
    /// nothing on their key-up, and appending to their empty effects would allocate per press.
    public var recordedPress: String?

    /// An outcome.
    public init(reply: BrokerReply, effects: [BrokerEffect] = []) {
      self.reply = reply
      self.effects = effects
    }

    /// A refusal: no effects.
    static func error(_ error: BrokerError) -> Outcome { Outcome(reply: .error(error)) }
  }

  /// Handles one request that arrived at `now`.
  public mutating func handle(_ request: BrokerRequest, at now: BrokerInstant) -> Outcome {
    if batch != nil { willHandle(touching: screen(of: request)) }
    var outcome: Outcome
    switch request {
    case .hello:
      return Outcome(
        reply: .welcome(Welcome(epoch: epoch, name: name, screens: sessions.keys.sorted())))
    case .register(let screen, let layout, let app):
      outcome = register(screen, layout, at: now)
      if case .ack = outcome.reply { registered(screen, app: app, at: now) }
    case .input(let input, let screen, let remote, let cause):
      outcome = apply(input, screen: screen, remote: remote, cause: cause, at: now)
    case .react(let reaction, let screen, let cause):
      outcome = react(reaction, screen: screen, cause: cause, at: now)
    case .patch(let patch, let screen, let cause):
      outcome = self.patch(patch, screen: screen, cause: cause, at: now)
    case .focus(let target, let screen, let cause):
      outcome = requestFocus(target, screen: screen, cause: cause, at: now)
    case .debug(let query, let screen):
      return debug(query, screen: screen)
    case .snapshot(let screen, let app):
      guard let index = sessions.index(forKey: screen) else {
        return .error(unknownScreen(screen))
      }
      seen(screen, at: now)
      if app { sessions.values[index].hasApp = true }
      return Outcome(reply: .snapshot(sessions.values[index].snapshot(epoch: epoch)))
    case .heartbeat(let screen):
      guard let index = sessions.index(forKey: screen) else {
        return .error(unknownScreen(screen))
      }
      seen(screen, at: now)
      let effects = hidePointerIfIdle(&sessions.values[index], at: now)
      var ack = Acknowledgement(screen: screen, seq: inPlace(index) { $0.seq }, focused: nil)
      ack.app = inPlace(index) { $0.hasApp }
      return Outcome(reply: .ack(ack), effects: effects)
    case .expire(let grace):
      return Outcome(reply: .expired(screens: expireScreens(at: now, grace: grace)))
    }
    // Only a broker that persists looks further (and copies nothing out of the reply).
    guard persists else { return outcome }
    switch outcome.reply {
    case .ack(let ack): persistIfChanged(ack.screen, &outcome)
    case .held(_, let screen): persistIfChanged(screen, &outcome)
    default: break
    }
    return outcome
  }

  /// Adds the `persist` effect of `screen`'s session if its durable values changed: first, so
  /// it is durable before anything is published or acknowledged (the runtime keeps the order).
  mutating func persistIfChanged(_ screen: String, _ outcome: inout Outcome) {
    guard persists, let session = sessions[screen], !session.isRecorded(by: records[screen])
    else { return }
    let record = session.record
    records[screen] = record
    noteChanged(screen)
    outcome.effects.insert(.persist(record), at: 0)
  }

  mutating func register(_ id: String, _ layout: Layout, at now: BrokerInstant)
    -> Outcome
  {
    guard layout.items.count <= maxItems else {
      return .error(.tooManyItems(count: layout.items.count, limit: maxItems))
    }
    // Validated once, by the engine (`replaceLayout` or `FocusState(layout:)`): a layout of
    // 100,000 items costs milliseconds to check, on the broker's loop.
    var session: ScreenSession
    var announcement: Announcement?
    if var existing = sessions[id] {
      let before = existing.focus
      let effects = reduce(&existing.focus, .replaceLayout(layout))
      if case .layoutRejected(let error) = effects.first { return .error(.invalidLayout(error)) }
      announcement = existing.announcer.announce(
        effects, before: before, after: existing.focus, at: now.nanoseconds)
      existing.seq += 1
      session = existing
    } else {
      let record = records[id]
      do {
        // The layout as sent is checked, not only as the record restores it.
        if record != nil { try layout.validate() }
        let restored = record.map { $0.restoring(layout) } ?? layout
        session = ScreenSession(id: id, focus: try FocusState(layout: restored), seq: 1)
      } catch {
        return .error(.invalidLayout(error))
      }
      if let memory = record?.memory, memory != FocusMemory() {
        reduce(&session.focus, .restoreMemory(memory))
      }
      if let text = record?.text, !text.isEmpty { reduce(&session.focus, .restoreText(text)) }
      announcement = session.announcer.announceFocus(in: session.focus)
    }
    sessions[id] = session
    // A new or replaced layout is published whole: deltas never carry layouts.
    return Outcome(
      reply: .ack(Acknowledgement(screen: id, seq: session.seq, focused: session.focus.focused)),
      effects: [.publish(.snapshot(session.snapshot(epoch: epoch, announcing: announcement)))])
  }

  private mutating func apply(
    _ input: RemoteInput, screen: String?, remote: String, cause: FocusCause,
    at now: BrokerInstant
  ) -> Outcome {
    guard let id = screen ?? onlySession else {
      return .error(
        sessions.isEmpty ? .noScreenRegistered : .ambiguousScreen(known: sessions.keys.sorted()))
    }
    return applyHeld(input, screen: id, remote: remote, cause: cause, token: nil, at: now)
  }

  /// Applies a remote's input to the session `id`, or holds it while the session waits for its
  /// app's reaction to an activation. An input that activates an item on a screen with an app
  /// starts a hold; its own reply is held under `token` (a new one if nil).
  mutating func applyHeld(
    _ input: RemoteInput, screen id: String, remote: String, cause: FocusCause, token: UInt64?,
    at now: BrokerInstant
  ) -> Outcome {
    // One lookup: releasing a hold changes sessions' values, never their keys, so the index
    // stays valid.
    guard let index = sessions.index(forKey: id) else { return .error(unknownScreen(id)) }
    var released: [BrokerEffect] = []
    if let hold = inPlace(index, { $0.hold }) {
      if now < hold.deadline, hold.queued.count < Self.heldInputLimit {
        let token = token ?? nextToken()
        sessions.values[index].hold?.queued.append(
          HeldInput(token: token, input: input, remote: remote, cause: cause))
        return Outcome(reply: .held(token: token, screen: id))
      }
      // Late (the app said nothing: presumed gone until it speaks again), or too much
      // waiting: what was held goes on first.
      if !(now < hold.deadline) { sessions.values[index].hasApp = false }
      released = releaseHold(of: id, at: now)
    }
    let epoch = epoch
    if case .pointer(let event) = input {
      sessions.values[index].pointerClock = PointerClock(remote: event.at, broker: now)
    }
    // In place: a copy taken out of the dictionary would make every buffer the step mutates
    // (the remotes' tables, the engine's) copy itself, and writing it back costs a lookup.
    var outcome = Self.step(
      &sessions.values[index], .remote(input, from: remote), cause: cause, epoch: epoch,
      at: now)
    if !released.isEmpty { outcome.effects.insert(contentsOf: released, at: 0) }
    guard inPlace(index, { $0.hasApp }), inPlace(index, { $0.hold }) == nil,
      case .ack(let ack) = outcome.reply,
      ack.effects.contains(where: AppReaction.awaits)
    else { return outcome }
    let held = token ?? nextToken()
    sessions.values[index].hold = ReactionHold(
      deadline: now + reactionDeadline, activationSeq: ack.seq, token: held, ack: ack)
    holding.insert(id)
    outcome.reply = .held(token: held, screen: id)
    return outcome
  }

  /// What `read` gives of the session at `index`, read where it lies. `Dictionary.Values`'
  /// getter copies the whole session to read one field (every table it holds retained, then
  /// released); its mutating accessor, which this goes through, lends the session in place.
  private mutating func inPlace<Value>(
    _ index: [String: ScreenSession].Index, _ read: (inout ScreenSession) -> Value
  ) -> Value {
    read(&sessions.values[index])
  }

  /// At most this many inputs wait for one reaction; one more releases them all.
  public static let heldInputLimit = 64

  private mutating func nextToken() -> UInt64 {
    lastToken &+= 1
    return lastToken
  }

  /// The pointer's idle timeout, checked on each screen heartbeat (about once a second): the
  /// remote's clock now is estimated from its last pointer sample plus the broker time since
  /// (the two clocks tick at the same rate), so the engine compares like with like.
  private func hidePointerIfIdle(_ session: inout ScreenSession, at now: BrokerInstant)
    -> [BrokerEffect]
  {
    guard session.focus.pointer.visible, let clock = session.pointerClock, clock.broker <= now
    else { return [] }
    let remoteNow = clock.remote &+ clock.broker.duration(to: now).nanosecondsClamped
    let cause = FocusCause(sender: "broker", sequence: 0)
    return Self.step(
      &session, .event(.pointerIdle(at: remoteNow)), cause: cause, epoch: epoch, at: now
    ).effects
  }

  /// What a session step runs: an engine event, or a remote's timed input.
  enum Step {
    case event(FocusEvent)
    /// A remote's input, with the key of the remote it came from (its key from the runtime).
    case remote(RemoteInput, from: String)

    /// Whether the step leaves the session's layout tables as they are (see
    /// `FocusState.Prior`).
    var keepsLayoutTables: Bool {
      switch self {
      case .event(let event): event.keepsLayoutTables
      case .remote(let input, _): input.keepsLayoutTables
      }
    }
  }

  /// Runs one engine event on a session (in place) and publishes a change if anything
  /// happened (or the focused item's tilt changed), with what a screen reader says about it.
  static func step(
    _ session: inout ScreenSession, _ step: Step, cause: FocusCause, epoch: UInt64,
    at now: BrokerInstant
  ) -> Outcome {
    // The state before the step, for the publication to compare: what the step changes of it
    // (`prior`), read on the layout tables after the step when the step keeps them (a key,
    // touch or text input, a focus request), or on a copy of the whole state when it may
    // change them (a pointer's reveal). The copy costs about 1,900 instructions a step.
    let prior = session.focus.prior
    let whole = step.keepsLayoutTables ? nil : session.focus
    // The parallax before is needed only when the step has no effects and moved no pointer;
    // it is a pure function of these and the state before, so it is computed then, not on
    // every step.
    let parallaxInputs = session.parallaxInputsInPlace()
    let pointerBefore = session.focus.pointerPresentation
    let effects: [FocusEffect]
    let parallax: Parallax?
    switch step {
    case .event(let event):
      effects = reduce(&session.focus, event, cause: cause)
      parallax = session.parallax
    case .remote(let input, let remote):
      (effects, parallax) = session.handle(input, from: remote)
    }
    for effect in effects {
      // The session keeps what changed (the remote's timing state) even so.
      if case .textRejected(let reason) = effect {
        var outcome = Outcome.error(.noTextField(reason: reason))
        outcome.effects = announceRefusal(
          &session, [effect], cause: cause, epoch: epoch, at: now)
        return outcome
      }
    }
    let pointer = session.focus.pointerPresentation
    var published: [BrokerEffect] = []
    // Spelled out for both: `whole ?? session.focus` would copy the whole state again.
    var publishes = !effects.isEmpty || pointer != pointerBefore
    if !publishes {
      let (tilt, bump) = parallaxInputs
      if let whole {
        publishes = parallax != Parallax.of(prior, in: whole, tilt: tilt, bump: bump)
      } else {
        publishes = parallax != Parallax.of(prior, in: session.focus, tilt: tilt, bump: bump)
      }
    }
    if publishes {
      let announcement: Announcement?
      let changed: [ItemStateChange]
      if let whole {
        announcement = session.announcer.announce(
          effects, from: prior, in: whole, after: session.focus, at: now.nanoseconds)
        changed = changedStates(from: prior, in: whole, after: session.focus, effects: effects)
      } else {
        announcement = session.announcer.announce(
          effects, from: prior, in: session.focus, after: session.focus, at: now.nanoseconds)
        changed = changedStates(
          from: prior, in: session.focus, after: session.focus, effects: effects,
          keptTables: true)
      }
      session.seq += 1
      var text: [String: String] = [:]
      for effect in effects {
        if case .textChanged(let id, let value) = effect { text[id] = value }
      }
      let change = StateChange(
        screen: session.id, epoch: epoch, seq: session.seq, focused: session.focus.focused,
        changed: changed, effects: effects, parallax: parallax, text: text,
        editingText: session.focus.isEditingText, cause: cause, announcement: announcement,
        pointer: pointer != pointerBefore ? pointer : nil)
      published = [.publish(.change(change))]
    }
    let ack = Acknowledgement(
      screen: session.id, seq: session.seq, focused: session.focus.focused, effects: effects,
      editingText: session.focus.isEditingText)
    return Outcome(reply: .ack(ack), effects: published)
  }

  /// What follows an accepted registration: the screen is alive, and has an app if it said so.
  mutating func registered(_ screen: String, app: Bool, at now: BrokerInstant) {
    seen(screen, at: now)
    if app { sessions[screen]?.hasApp = true }
  }

  /// Notes that a screen showed it is alive.
  private mutating func seen(_ screen: String, at now: BrokerInstant) {
    lastSeen[screen] = now
    gone.removeAll { $0 == screen }
  }

  /// The session input that names no screen goes to: the only one, if exactly one exists.
  var onlySession: String? { sessions.count == 1 ? sessions.keys.first : nil }

  /// Drops the sessions no screen has kept alive for `grace`; returns their ids. A session
  /// whose screen vanished keeps its state for the grace period, so a screen that restarts or
  /// reconnects in time finds everything as it was (the runtime asks with `.expire`).
  mutating func expireScreens(at now: BrokerInstant, grace: Duration) -> [String] {
    var dropped: [String] = []
    for id in sessions.keys.sorted() {
      let seenAt = lastSeen[id] ?? now
      guard seenAt.duration(to: now) > grace else { continue }
      sessions[id] = nil
      lastSeen[id] = nil
      gone.append(id)
      dropped.append(id)
    }
    if gone.count > Self.rememberedGone { gone.removeFirst(gone.count - Self.rememberedGone) }
    return dropped
  }

  /// The refusal for a request naming a screen with no session.
  func unknownScreen(_ id: String) -> BrokerError {
    gone.contains(id) ? .screenGone(id) : .unknownScreen(id, known: sessions.keys.sorted())
  }
}
