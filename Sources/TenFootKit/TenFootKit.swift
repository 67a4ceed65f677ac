// TenFootKit: the library an app on TenFoot depends on (docs/apps.md). It brings the layout
// model and the commands (FocusEngine), the app protocol and its events, and `TenFootApp`,
// which connects (CURVE, pairing keys, discovery, reconnect and resync) and runs an app
// inside a screen or as its own process, with `react` or, in the async style, as an
// `AppConnection` (its events an AsyncSequence, its commands awaited).
@_exported import FocusEngine
import ScreenCore

/// An app on a TenFoot screen (see ``ScreenCore/ScreenApp``).
public typealias ScreenApp = ScreenCore.ScreenApp
/// What happened on a screen, as an app sees it.
public typealias AppEvent = ScreenCore.AppEvent
/// A screen's state as an app sees it.
public typealias AppScreen = ScreenCore.AppScreen
