from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PeerRole(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PEER_ROLE_UNSPECIFIED: _ClassVar[PeerRole]
    PEER_ROLE_SCREEN: _ClassVar[PeerRole]
    PEER_ROLE_REMOTE: _ClassVar[PeerRole]
    PEER_ROLE_TOOL: _ClassVar[PeerRole]

class NavigationModel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NAVIGATION_MODEL_UNSPECIFIED: _ClassVar[NavigationModel]
    NAVIGATION_MODEL_TVOS: _ClassVar[NavigationModel]
    NAVIGATION_MODEL_IPADOS: _ClassVar[NavigationModel]

class FocusEffectStyle(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FOCUS_EFFECT_STYLE_UNSPECIFIED: _ClassVar[FocusEffectStyle]
    FOCUS_EFFECT_STYLE_HALO: _ClassVar[FocusEffectStyle]
    FOCUS_EFFECT_STYLE_HIGHLIGHT: _ClassVar[FocusEffectStyle]
    FOCUS_EFFECT_STYLE_LIFT: _ClassVar[FocusEffectStyle]

class PointerEffectStyle(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    POINTER_EFFECT_STYLE_UNSPECIFIED: _ClassVar[PointerEffectStyle]
    POINTER_EFFECT_STYLE_HIGHLIGHT: _ClassVar[PointerEffectStyle]
    POINTER_EFFECT_STYLE_LIFT: _ClassVar[PointerEffectStyle]
    POINTER_EFFECT_STYLE_HOVER: _ClassVar[PointerEffectStyle]
    POINTER_EFFECT_STYLE_NONE: _ClassVar[PointerEffectStyle]

class Verbosity(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VERBOSITY_UNSPECIFIED: _ClassVar[Verbosity]
    VERBOSITY_LOW: _ClassVar[Verbosity]
    VERBOSITY_NORMAL: _ClassVar[Verbosity]
    VERBOSITY_HIGH: _ClassVar[Verbosity]

class SearchModel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEARCH_MODEL_UNSPECIFIED: _ClassVar[SearchModel]
    SEARCH_MODEL_TVOS: _ClassVar[SearchModel]
    SEARCH_MODEL_ANDROID: _ClassVar[SearchModel]

class LayoutDirection(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LAYOUT_DIRECTION_LTR: _ClassVar[LayoutDirection]
    LAYOUT_DIRECTION_RTL: _ClassVar[LayoutDirection]

class ScrollAxis(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SCROLL_AXIS_NONE: _ClassVar[ScrollAxis]
    SCROLL_AXIS_HORIZONTAL: _ClassVar[ScrollAxis]
    SCROLL_AXIS_VERTICAL: _ClassVar[ScrollAxis]
    SCROLL_AXIS_BOTH: _ClassVar[ScrollAxis]

class AccessibilityTrait(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACCESSIBILITY_TRAIT_UNSPECIFIED: _ClassVar[AccessibilityTrait]
    ACCESSIBILITY_TRAIT_BUTTON: _ClassVar[AccessibilityTrait]
    ACCESSIBILITY_TRAIT_LINK: _ClassVar[AccessibilityTrait]
    ACCESSIBILITY_TRAIT_HEADER: _ClassVar[AccessibilityTrait]
    ACCESSIBILITY_TRAIT_TEXT_FIELD: _ClassVar[AccessibilityTrait]
    ACCESSIBILITY_TRAIT_SEARCH_FIELD: _ClassVar[AccessibilityTrait]
    ACCESSIBILITY_TRAIT_IMAGE: _ClassVar[AccessibilityTrait]
    ACCESSIBILITY_TRAIT_TAB: _ClassVar[AccessibilityTrait]
    ACCESSIBILITY_TRAIT_TOGGLE: _ClassVar[AccessibilityTrait]
    ACCESSIBILITY_TRAIT_SELECTED: _ClassVar[AccessibilityTrait]
    ACCESSIBILITY_TRAIT_UNAVAILABLE: _ClassVar[AccessibilityTrait]

class ItemKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ITEM_KIND_BUTTON: _ClassVar[ItemKind]
    ITEM_KIND_TEXT_FIELD: _ClassVar[ItemKind]
    ITEM_KIND_LABEL: _ClassVar[ItemKind]

class VirtualArrangement(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VIRTUAL_ARRANGEMENT_ROW: _ClassVar[VirtualArrangement]
    VIRTUAL_ARRANGEMENT_COLUMN: _ClassVar[VirtualArrangement]
    VIRTUAL_ARRANGEMENT_GRID: _ClassVar[VirtualArrangement]

class TouchPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOUCH_PHASE_UNSPECIFIED: _ClassVar[TouchPhase]
    TOUCH_PHASE_BEGAN: _ClassVar[TouchPhase]
    TOUCH_PHASE_MOVED: _ClassVar[TouchPhase]
    TOUCH_PHASE_ENDED: _ClassVar[TouchPhase]
    TOUCH_PHASE_CANCELLED: _ClassVar[TouchPhase]

class PointerPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    POINTER_PHASE_UNSPECIFIED: _ClassVar[PointerPhase]
    POINTER_PHASE_MOVED: _ClassVar[PointerPhase]
    POINTER_PHASE_DOWN: _ClassVar[PointerPhase]
    POINTER_PHASE_UP: _ClassVar[PointerPhase]
    POINTER_PHASE_CANCELLED: _ClassVar[PointerPhase]
    POINTER_PHASE_SCROLL: _ClassVar[PointerPhase]

class Key(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KEY_UNSPECIFIED: _ClassVar[Key]
    KEY_UP: _ClassVar[Key]
    KEY_DOWN: _ClassVar[Key]
    KEY_LEFT: _ClassVar[Key]
    KEY_RIGHT: _ClassVar[Key]
    KEY_SELECT: _ClassVar[Key]
    KEY_MENU: _ClassVar[Key]
    KEY_HOME: _ClassVar[Key]
    KEY_PLAY_PAUSE: _ClassVar[Key]
    KEY_PAGE_UP: _ClassVar[Key]
    KEY_PAGE_DOWN: _ClassVar[Key]
    KEY_TAB: _ClassVar[Key]
    KEY_SHIFT_TAB: _ClassVar[Key]
    KEY_VOLUME_UP: _ClassVar[Key]
    KEY_VOLUME_DOWN: _ClassVar[Key]
    KEY_MUTE: _ClassVar[Key]
    KEY_POWER: _ClassVar[Key]
    KEY_INFO: _ClassVar[Key]

class KeyPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KEY_PHASE_UNSPECIFIED: _ClassVar[KeyPhase]
    KEY_PHASE_DOWN: _ClassVar[KeyPhase]
    KEY_PHASE_UP: _ClassVar[KeyPhase]
    KEY_PHASE_HELD: _ClassVar[KeyPhase]

class FocusDisplayState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FOCUS_DISPLAY_STATE_UNSPECIFIED: _ClassVar[FocusDisplayState]
    FOCUS_DISPLAY_STATE_UNFOCUSED: _ClassVar[FocusDisplayState]
    FOCUS_DISPLAY_STATE_FOCUSED: _ClassVar[FocusDisplayState]
    FOCUS_DISPLAY_STATE_HIGHLIGHTED: _ClassVar[FocusDisplayState]
    FOCUS_DISPLAY_STATE_SELECTED: _ClassVar[FocusDisplayState]
    FOCUS_DISPLAY_STATE_UNAVAILABLE: _ClassVar[FocusDisplayState]

class Heading(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HEADING_UNSPECIFIED: _ClassVar[Heading]
    HEADING_UP: _ClassVar[Heading]
    HEADING_DOWN: _ClassVar[Heading]
    HEADING_LEFT: _ClassVar[Heading]
    HEADING_RIGHT: _ClassVar[Heading]
    HEADING_NEXT: _ClassVar[Heading]
    HEADING_PREVIOUS: _ClassVar[Heading]
    HEADING_PROGRAMMATIC: _ClassVar[Heading]
    HEADING_RECOVERY: _ClassVar[Heading]
    HEADING_INITIAL: _ClassVar[Heading]
    HEADING_POINTER: _ClassVar[Heading]

class FocusDenialReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FOCUS_DENIAL_REASON_UNSPECIFIED: _ClassVar[FocusDenialReason]
    FOCUS_DENIAL_REASON_UNKNOWN: _ClassVar[FocusDenialReason]
    FOCUS_DENIAL_REASON_UNAVAILABLE: _ClassVar[FocusDenialReason]
    FOCUS_DENIAL_REASON_OUTSIDE_TRAPPING_GROUP: _ClassVar[FocusDenialReason]
    FOCUS_DENIAL_REASON_AMBIGUOUS: _ClassVar[FocusDenialReason]

class AnnouncementKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ANNOUNCEMENT_KIND_UNSPECIFIED: _ClassVar[AnnouncementKind]
    ANNOUNCEMENT_KIND_GROUP: _ClassVar[AnnouncementKind]
    ANNOUNCEMENT_KIND_LABEL: _ClassVar[AnnouncementKind]
    ANNOUNCEMENT_KIND_VALUE: _ClassVar[AnnouncementKind]
    ANNOUNCEMENT_KIND_TRAIT: _ClassVar[AnnouncementKind]
    ANNOUNCEMENT_KIND_POSITION: _ClassVar[AnnouncementKind]
    ANNOUNCEMENT_KIND_HINT: _ClassVar[AnnouncementKind]
    ANNOUNCEMENT_KIND_ACTION: _ClassVar[AnnouncementKind]
    ANNOUNCEMENT_KIND_EDGE: _ClassVar[AnnouncementKind]
    ANNOUNCEMENT_KIND_REFUSAL: _ClassVar[AnnouncementKind]

class ErrorCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ERROR_CODE_UNSPECIFIED: _ClassVar[ErrorCode]
    ERROR_CODE_MALFORMED: _ClassVar[ErrorCode]
    ERROR_CODE_UNSUPPORTED_VERSION: _ClassVar[ErrorCode]
    ERROR_CODE_UNKNOWN_SCREEN: _ClassVar[ErrorCode]
    ERROR_CODE_INVALID_LAYOUT: _ClassVar[ErrorCode]
    ERROR_CODE_INVALID_INPUT: _ClassVar[ErrorCode]
    ERROR_CODE_UNEXPECTED_MESSAGE: _ClassVar[ErrorCode]
    ERROR_CODE_AMBIGUOUS_SCREEN: _ClassVar[ErrorCode]
    ERROR_CODE_UNKNOWN_TARGET: _ClassVar[ErrorCode]
    ERROR_CODE_FOCUS_UNAVAILABLE: _ClassVar[ErrorCode]
    ERROR_CODE_FOCUS_TRAPPED: _ClassVar[ErrorCode]
    ERROR_CODE_FOCUS_AMBIGUOUS: _ClassVar[ErrorCode]
    ERROR_CODE_NO_TEXT_FIELD: _ClassVar[ErrorCode]
    ERROR_CODE_SCREEN_GONE: _ClassVar[ErrorCode]
    ERROR_CODE_NOT_PAIRED: _ClassVar[ErrorCode]
    ERROR_CODE_PAIRING_FAILED: _ClassVar[ErrorCode]
    ERROR_CODE_PAIRING_BACKOFF: _ClassVar[ErrorCode]
    ERROR_CODE_NO_PAIRING: _ClassVar[ErrorCode]
    ERROR_CODE_RATE_LIMITED: _ClassVar[ErrorCode]
    ERROR_CODE_STORE_UNAVAILABLE: _ClassVar[ErrorCode]
    ERROR_CODE_FORBIDDEN: _ClassVar[ErrorCode]
    ERROR_CODE_PAIRING_BUSY: _ClassVar[ErrorCode]
    ERROR_CODE_PAIRING_CLOSED: _ClassVar[ErrorCode]
    ERROR_CODE_PARTS_REFUSED: _ClassVar[ErrorCode]
PEER_ROLE_UNSPECIFIED: PeerRole
PEER_ROLE_SCREEN: PeerRole
PEER_ROLE_REMOTE: PeerRole
PEER_ROLE_TOOL: PeerRole
NAVIGATION_MODEL_UNSPECIFIED: NavigationModel
NAVIGATION_MODEL_TVOS: NavigationModel
NAVIGATION_MODEL_IPADOS: NavigationModel
FOCUS_EFFECT_STYLE_UNSPECIFIED: FocusEffectStyle
FOCUS_EFFECT_STYLE_HALO: FocusEffectStyle
FOCUS_EFFECT_STYLE_HIGHLIGHT: FocusEffectStyle
FOCUS_EFFECT_STYLE_LIFT: FocusEffectStyle
POINTER_EFFECT_STYLE_UNSPECIFIED: PointerEffectStyle
POINTER_EFFECT_STYLE_HIGHLIGHT: PointerEffectStyle
POINTER_EFFECT_STYLE_LIFT: PointerEffectStyle
POINTER_EFFECT_STYLE_HOVER: PointerEffectStyle
POINTER_EFFECT_STYLE_NONE: PointerEffectStyle
VERBOSITY_UNSPECIFIED: Verbosity
VERBOSITY_LOW: Verbosity
VERBOSITY_NORMAL: Verbosity
VERBOSITY_HIGH: Verbosity
SEARCH_MODEL_UNSPECIFIED: SearchModel
SEARCH_MODEL_TVOS: SearchModel
SEARCH_MODEL_ANDROID: SearchModel
LAYOUT_DIRECTION_LTR: LayoutDirection
LAYOUT_DIRECTION_RTL: LayoutDirection
SCROLL_AXIS_NONE: ScrollAxis
SCROLL_AXIS_HORIZONTAL: ScrollAxis
SCROLL_AXIS_VERTICAL: ScrollAxis
SCROLL_AXIS_BOTH: ScrollAxis
ACCESSIBILITY_TRAIT_UNSPECIFIED: AccessibilityTrait
ACCESSIBILITY_TRAIT_BUTTON: AccessibilityTrait
ACCESSIBILITY_TRAIT_LINK: AccessibilityTrait
ACCESSIBILITY_TRAIT_HEADER: AccessibilityTrait
ACCESSIBILITY_TRAIT_TEXT_FIELD: AccessibilityTrait
ACCESSIBILITY_TRAIT_SEARCH_FIELD: AccessibilityTrait
ACCESSIBILITY_TRAIT_IMAGE: AccessibilityTrait
ACCESSIBILITY_TRAIT_TAB: AccessibilityTrait
ACCESSIBILITY_TRAIT_TOGGLE: AccessibilityTrait
ACCESSIBILITY_TRAIT_SELECTED: AccessibilityTrait
ACCESSIBILITY_TRAIT_UNAVAILABLE: AccessibilityTrait
ITEM_KIND_BUTTON: ItemKind
ITEM_KIND_TEXT_FIELD: ItemKind
ITEM_KIND_LABEL: ItemKind
VIRTUAL_ARRANGEMENT_ROW: VirtualArrangement
VIRTUAL_ARRANGEMENT_COLUMN: VirtualArrangement
VIRTUAL_ARRANGEMENT_GRID: VirtualArrangement
TOUCH_PHASE_UNSPECIFIED: TouchPhase
TOUCH_PHASE_BEGAN: TouchPhase
TOUCH_PHASE_MOVED: TouchPhase
TOUCH_PHASE_ENDED: TouchPhase
TOUCH_PHASE_CANCELLED: TouchPhase
POINTER_PHASE_UNSPECIFIED: PointerPhase
POINTER_PHASE_MOVED: PointerPhase
POINTER_PHASE_DOWN: PointerPhase
POINTER_PHASE_UP: PointerPhase
POINTER_PHASE_CANCELLED: PointerPhase
POINTER_PHASE_SCROLL: PointerPhase
KEY_UNSPECIFIED: Key
KEY_UP: Key
KEY_DOWN: Key
KEY_LEFT: Key
KEY_RIGHT: Key
KEY_SELECT: Key
KEY_MENU: Key
KEY_HOME: Key
KEY_PLAY_PAUSE: Key
KEY_PAGE_UP: Key
KEY_PAGE_DOWN: Key
KEY_TAB: Key
KEY_SHIFT_TAB: Key
KEY_VOLUME_UP: Key
KEY_VOLUME_DOWN: Key
KEY_MUTE: Key
KEY_POWER: Key
KEY_INFO: Key
KEY_PHASE_UNSPECIFIED: KeyPhase
KEY_PHASE_DOWN: KeyPhase
KEY_PHASE_UP: KeyPhase
KEY_PHASE_HELD: KeyPhase
FOCUS_DISPLAY_STATE_UNSPECIFIED: FocusDisplayState
FOCUS_DISPLAY_STATE_UNFOCUSED: FocusDisplayState
FOCUS_DISPLAY_STATE_FOCUSED: FocusDisplayState
FOCUS_DISPLAY_STATE_HIGHLIGHTED: FocusDisplayState
FOCUS_DISPLAY_STATE_SELECTED: FocusDisplayState
FOCUS_DISPLAY_STATE_UNAVAILABLE: FocusDisplayState
HEADING_UNSPECIFIED: Heading
HEADING_UP: Heading
HEADING_DOWN: Heading
HEADING_LEFT: Heading
HEADING_RIGHT: Heading
HEADING_NEXT: Heading
HEADING_PREVIOUS: Heading
HEADING_PROGRAMMATIC: Heading
HEADING_RECOVERY: Heading
HEADING_INITIAL: Heading
HEADING_POINTER: Heading
FOCUS_DENIAL_REASON_UNSPECIFIED: FocusDenialReason
FOCUS_DENIAL_REASON_UNKNOWN: FocusDenialReason
FOCUS_DENIAL_REASON_UNAVAILABLE: FocusDenialReason
FOCUS_DENIAL_REASON_OUTSIDE_TRAPPING_GROUP: FocusDenialReason
FOCUS_DENIAL_REASON_AMBIGUOUS: FocusDenialReason
ANNOUNCEMENT_KIND_UNSPECIFIED: AnnouncementKind
ANNOUNCEMENT_KIND_GROUP: AnnouncementKind
ANNOUNCEMENT_KIND_LABEL: AnnouncementKind
ANNOUNCEMENT_KIND_VALUE: AnnouncementKind
ANNOUNCEMENT_KIND_TRAIT: AnnouncementKind
ANNOUNCEMENT_KIND_POSITION: AnnouncementKind
ANNOUNCEMENT_KIND_HINT: AnnouncementKind
ANNOUNCEMENT_KIND_ACTION: AnnouncementKind
ANNOUNCEMENT_KIND_EDGE: AnnouncementKind
ANNOUNCEMENT_KIND_REFUSAL: AnnouncementKind
ERROR_CODE_UNSPECIFIED: ErrorCode
ERROR_CODE_MALFORMED: ErrorCode
ERROR_CODE_UNSUPPORTED_VERSION: ErrorCode
ERROR_CODE_UNKNOWN_SCREEN: ErrorCode
ERROR_CODE_INVALID_LAYOUT: ErrorCode
ERROR_CODE_INVALID_INPUT: ErrorCode
ERROR_CODE_UNEXPECTED_MESSAGE: ErrorCode
ERROR_CODE_AMBIGUOUS_SCREEN: ErrorCode
ERROR_CODE_UNKNOWN_TARGET: ErrorCode
ERROR_CODE_FOCUS_UNAVAILABLE: ErrorCode
ERROR_CODE_FOCUS_TRAPPED: ErrorCode
ERROR_CODE_FOCUS_AMBIGUOUS: ErrorCode
ERROR_CODE_NO_TEXT_FIELD: ErrorCode
ERROR_CODE_SCREEN_GONE: ErrorCode
ERROR_CODE_NOT_PAIRED: ErrorCode
ERROR_CODE_PAIRING_FAILED: ErrorCode
ERROR_CODE_PAIRING_BACKOFF: ErrorCode
ERROR_CODE_NO_PAIRING: ErrorCode
ERROR_CODE_RATE_LIMITED: ErrorCode
ERROR_CODE_STORE_UNAVAILABLE: ErrorCode
ERROR_CODE_FORBIDDEN: ErrorCode
ERROR_CODE_PAIRING_BUSY: ErrorCode
ERROR_CODE_PAIRING_CLOSED: ErrorCode
ERROR_CODE_PARTS_REFUSED: ErrorCode

class Envelope(_message.Message):
    __slots__ = ("protocol_version", "sender", "seq", "sent_at_ns", "reply_to", "hello", "welcome", "register_screen", "input", "snapshot_request", "snapshot", "delta", "ack", "error", "heartbeat", "patch_layout", "focus_request", "debug_request", "debug_report", "app_reaction", "pair_request", "pair_challenge", "pair_proof", "paired", "pairing_prompt", "open_pairing", "part")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    SENDER_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SENT_AT_NS_FIELD_NUMBER: _ClassVar[int]
    REPLY_TO_FIELD_NUMBER: _ClassVar[int]
    HELLO_FIELD_NUMBER: _ClassVar[int]
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    REGISTER_SCREEN_FIELD_NUMBER: _ClassVar[int]
    INPUT_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_REQUEST_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    DELTA_FIELD_NUMBER: _ClassVar[int]
    ACK_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    PATCH_LAYOUT_FIELD_NUMBER: _ClassVar[int]
    FOCUS_REQUEST_FIELD_NUMBER: _ClassVar[int]
    DEBUG_REQUEST_FIELD_NUMBER: _ClassVar[int]
    DEBUG_REPORT_FIELD_NUMBER: _ClassVar[int]
    APP_REACTION_FIELD_NUMBER: _ClassVar[int]
    PAIR_REQUEST_FIELD_NUMBER: _ClassVar[int]
    PAIR_CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    PAIR_PROOF_FIELD_NUMBER: _ClassVar[int]
    PAIRED_FIELD_NUMBER: _ClassVar[int]
    PAIRING_PROMPT_FIELD_NUMBER: _ClassVar[int]
    OPEN_PAIRING_FIELD_NUMBER: _ClassVar[int]
    PART_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    sender: str
    seq: int
    sent_at_ns: int
    reply_to: int
    hello: Hello
    welcome: Welcome
    register_screen: RegisterScreen
    input: Input
    snapshot_request: SnapshotRequest
    snapshot: ScreenState
    delta: StateDelta
    ack: Ack
    error: Error
    heartbeat: Heartbeat
    patch_layout: PatchLayout
    focus_request: FocusRequest
    debug_request: DebugRequest
    debug_report: DebugReport
    app_reaction: AppReaction
    pair_request: PairRequest
    pair_challenge: PairChallenge
    pair_proof: PairProof
    paired: Paired
    pairing_prompt: PairingPrompt
    open_pairing: OpenPairing
    part: MessagePart
    def __init__(self, protocol_version: _Optional[int] = ..., sender: _Optional[str] = ..., seq: _Optional[int] = ..., sent_at_ns: _Optional[int] = ..., reply_to: _Optional[int] = ..., hello: _Optional[_Union[Hello, _Mapping]] = ..., welcome: _Optional[_Union[Welcome, _Mapping]] = ..., register_screen: _Optional[_Union[RegisterScreen, _Mapping]] = ..., input: _Optional[_Union[Input, _Mapping]] = ..., snapshot_request: _Optional[_Union[SnapshotRequest, _Mapping]] = ..., snapshot: _Optional[_Union[ScreenState, _Mapping]] = ..., delta: _Optional[_Union[StateDelta, _Mapping]] = ..., ack: _Optional[_Union[Ack, _Mapping]] = ..., error: _Optional[_Union[Error, _Mapping]] = ..., heartbeat: _Optional[_Union[Heartbeat, _Mapping]] = ..., patch_layout: _Optional[_Union[PatchLayout, _Mapping]] = ..., focus_request: _Optional[_Union[FocusRequest, _Mapping]] = ..., debug_request: _Optional[_Union[DebugRequest, _Mapping]] = ..., debug_report: _Optional[_Union[DebugReport, _Mapping]] = ..., app_reaction: _Optional[_Union[AppReaction, _Mapping]] = ..., pair_request: _Optional[_Union[PairRequest, _Mapping]] = ..., pair_challenge: _Optional[_Union[PairChallenge, _Mapping]] = ..., pair_proof: _Optional[_Union[PairProof, _Mapping]] = ..., paired: _Optional[_Union[Paired, _Mapping]] = ..., pairing_prompt: _Optional[_Union[PairingPrompt, _Mapping]] = ..., open_pairing: _Optional[_Union[OpenPairing, _Mapping]] = ..., part: _Optional[_Union[MessagePart, _Mapping]] = ...) -> None: ...

class MessagePart(_message.Message):
    __slots__ = ("index", "count", "data")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    index: int
    count: int
    data: bytes
    def __init__(self, index: _Optional[int] = ..., count: _Optional[int] = ..., data: _Optional[bytes] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("role", "client")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    role: PeerRole
    client: str
    def __init__(self, role: _Optional[_Union[PeerRole, str]] = ..., client: _Optional[str] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("protocol_version", "epoch", "broker", "screens")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    EPOCH_FIELD_NUMBER: _ClassVar[int]
    BROKER_FIELD_NUMBER: _ClassVar[int]
    SCREENS_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    epoch: int
    broker: str
    screens: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, protocol_version: _Optional[int] = ..., epoch: _Optional[int] = ..., broker: _Optional[str] = ..., screens: _Optional[_Iterable[str]] = ...) -> None: ...

class RegisterScreen(_message.Message):
    __slots__ = ("screen_id", "layout", "app")
    SCREEN_ID_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_FIELD_NUMBER: _ClassVar[int]
    APP_FIELD_NUMBER: _ClassVar[int]
    screen_id: str
    layout: Layout
    app: bool
    def __init__(self, screen_id: _Optional[str] = ..., layout: _Optional[_Union[Layout, _Mapping]] = ..., app: _Optional[bool] = ...) -> None: ...

class Layout(_message.Message):
    __slots__ = ("canvas", "items", "groups", "initial_focus", "search", "layout_direction", "guides", "navigation", "pointer_hit_margin", "pointer_idle_timeout", "verbosity")
    CANVAS_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    INITIAL_FOCUS_FIELD_NUMBER: _ClassVar[int]
    SEARCH_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_DIRECTION_FIELD_NUMBER: _ClassVar[int]
    GUIDES_FIELD_NUMBER: _ClassVar[int]
    NAVIGATION_FIELD_NUMBER: _ClassVar[int]
    POINTER_HIT_MARGIN_FIELD_NUMBER: _ClassVar[int]
    POINTER_IDLE_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    VERBOSITY_FIELD_NUMBER: _ClassVar[int]
    canvas: Size
    items: _containers.RepeatedCompositeFieldContainer[Item]
    groups: _containers.RepeatedCompositeFieldContainer[Group]
    initial_focus: str
    search: SearchModel
    layout_direction: LayoutDirection
    guides: _containers.RepeatedCompositeFieldContainer[FocusGuide]
    navigation: NavigationModel
    pointer_hit_margin: float
    pointer_idle_timeout: float
    verbosity: Verbosity
    def __init__(self, canvas: _Optional[_Union[Size, _Mapping]] = ..., items: _Optional[_Iterable[_Union[Item, _Mapping]]] = ..., groups: _Optional[_Iterable[_Union[Group, _Mapping]]] = ..., initial_focus: _Optional[str] = ..., search: _Optional[_Union[SearchModel, str]] = ..., layout_direction: _Optional[_Union[LayoutDirection, str]] = ..., guides: _Optional[_Iterable[_Union[FocusGuide, _Mapping]]] = ..., navigation: _Optional[_Union[NavigationModel, str]] = ..., pointer_hit_margin: _Optional[float] = ..., pointer_idle_timeout: _Optional[float] = ..., verbosity: _Optional[_Union[Verbosity, str]] = ...) -> None: ...

class FocusGuide(_message.Message):
    __slots__ = ("id", "frame", "destinations", "disabled", "group")
    ID_FIELD_NUMBER: _ClassVar[int]
    FRAME_FIELD_NUMBER: _ClassVar[int]
    DESTINATIONS_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    id: str
    frame: Rect
    destinations: _containers.RepeatedScalarFieldContainer[str]
    disabled: bool
    group: str
    def __init__(self, id: _Optional[str] = ..., frame: _Optional[_Union[Rect, _Mapping]] = ..., destinations: _Optional[_Iterable[str]] = ..., disabled: _Optional[bool] = ..., group: _Optional[str] = ...) -> None: ...

class Size(_message.Message):
    __slots__ = ("width", "height")
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    HEIGHT_FIELD_NUMBER: _ClassVar[int]
    width: float
    height: float
    def __init__(self, width: _Optional[float] = ..., height: _Optional[float] = ...) -> None: ...

class Rect(_message.Message):
    __slots__ = ("x", "y", "width", "height")
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    HEIGHT_FIELD_NUMBER: _ClassVar[int]
    x: float
    y: float
    width: float
    height: float
    def __init__(self, x: _Optional[float] = ..., y: _Optional[float] = ..., width: _Optional[float] = ..., height: _Optional[float] = ...) -> None: ...

class Item(_message.Message):
    __slots__ = ("id", "title", "frame", "unavailable", "momentary", "selected", "priority", "kind", "layers", "value", "focus_effect", "corner_radius", "pointer_effect", "no_pointer_magnetism", "pointer_shape", "accessibility", "content")
    ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    FRAME_FIELD_NUMBER: _ClassVar[int]
    UNAVAILABLE_FIELD_NUMBER: _ClassVar[int]
    MOMENTARY_FIELD_NUMBER: _ClassVar[int]
    SELECTED_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LAYERS_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    FOCUS_EFFECT_FIELD_NUMBER: _ClassVar[int]
    CORNER_RADIUS_FIELD_NUMBER: _ClassVar[int]
    POINTER_EFFECT_FIELD_NUMBER: _ClassVar[int]
    NO_POINTER_MAGNETISM_FIELD_NUMBER: _ClassVar[int]
    POINTER_SHAPE_FIELD_NUMBER: _ClassVar[int]
    ACCESSIBILITY_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    id: str
    title: str
    frame: Rect
    unavailable: bool
    momentary: bool
    selected: bool
    priority: int
    kind: ItemKind
    layers: _containers.RepeatedCompositeFieldContainer[ParallaxLayer]
    value: str
    focus_effect: FocusEffectStyle
    corner_radius: float
    pointer_effect: PointerEffectStyle
    no_pointer_magnetism: bool
    pointer_shape: str
    accessibility: ItemAccessibility
    content: ItemContent
    def __init__(self, id: _Optional[str] = ..., title: _Optional[str] = ..., frame: _Optional[_Union[Rect, _Mapping]] = ..., unavailable: _Optional[bool] = ..., momentary: _Optional[bool] = ..., selected: _Optional[bool] = ..., priority: _Optional[int] = ..., kind: _Optional[_Union[ItemKind, str]] = ..., layers: _Optional[_Iterable[_Union[ParallaxLayer, _Mapping]]] = ..., value: _Optional[str] = ..., focus_effect: _Optional[_Union[FocusEffectStyle, str]] = ..., corner_radius: _Optional[float] = ..., pointer_effect: _Optional[_Union[PointerEffectStyle, str]] = ..., no_pointer_magnetism: _Optional[bool] = ..., pointer_shape: _Optional[str] = ..., accessibility: _Optional[_Union[ItemAccessibility, _Mapping]] = ..., content: _Optional[_Union[ItemContent, _Mapping]] = ...) -> None: ...

class ItemContent(_message.Message):
    __slots__ = ("subtitle", "body", "badge", "image", "accent")
    SUBTITLE_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    BADGE_FIELD_NUMBER: _ClassVar[int]
    IMAGE_FIELD_NUMBER: _ClassVar[int]
    ACCENT_FIELD_NUMBER: _ClassVar[int]
    subtitle: str
    body: str
    badge: str
    image: str
    accent: str
    def __init__(self, subtitle: _Optional[str] = ..., body: _Optional[str] = ..., badge: _Optional[str] = ..., image: _Optional[str] = ..., accent: _Optional[str] = ...) -> None: ...

class ItemAccessibility(_message.Message):
    __slots__ = ("label", "hint", "value", "traits", "declares_traits")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    HINT_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    TRAITS_FIELD_NUMBER: _ClassVar[int]
    DECLARES_TRAITS_FIELD_NUMBER: _ClassVar[int]
    label: str
    hint: str
    value: str
    traits: _containers.RepeatedScalarFieldContainer[AccessibilityTrait]
    declares_traits: bool
    def __init__(self, label: _Optional[str] = ..., hint: _Optional[str] = ..., value: _Optional[str] = ..., traits: _Optional[_Iterable[_Union[AccessibilityTrait, str]]] = ..., declares_traits: _Optional[bool] = ...) -> None: ...

class ParallaxLayer(_message.Message):
    __slots__ = ("name", "depth")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DEPTH_FIELD_NUMBER: _ClassVar[int]
    name: str
    depth: float
    def __init__(self, name: _Optional[str] = ..., depth: _Optional[float] = ...) -> None: ...

class Group(_message.Message):
    __slots__ = ("id", "items", "groups", "traps_focus", "remembers_last_focused", "preferred_focus", "selection_follows_focus", "search", "scroll", "viewport", "scroll_margin", "disabled", "navigation", "reveal_on_pointer", "accessibility_label", "virtual")
    ID_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    TRAPS_FOCUS_FIELD_NUMBER: _ClassVar[int]
    REMEMBERS_LAST_FOCUSED_FIELD_NUMBER: _ClassVar[int]
    PREFERRED_FOCUS_FIELD_NUMBER: _ClassVar[int]
    SELECTION_FOLLOWS_FOCUS_FIELD_NUMBER: _ClassVar[int]
    SEARCH_FIELD_NUMBER: _ClassVar[int]
    SCROLL_FIELD_NUMBER: _ClassVar[int]
    VIEWPORT_FIELD_NUMBER: _ClassVar[int]
    SCROLL_MARGIN_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    NAVIGATION_FIELD_NUMBER: _ClassVar[int]
    REVEAL_ON_POINTER_FIELD_NUMBER: _ClassVar[int]
    ACCESSIBILITY_LABEL_FIELD_NUMBER: _ClassVar[int]
    VIRTUAL_FIELD_NUMBER: _ClassVar[int]
    id: str
    items: _containers.RepeatedScalarFieldContainer[str]
    groups: _containers.RepeatedCompositeFieldContainer[Group]
    traps_focus: bool
    remembers_last_focused: bool
    preferred_focus: str
    selection_follows_focus: bool
    search: SearchModel
    scroll: ScrollAxis
    viewport: Rect
    scroll_margin: float
    disabled: bool
    navigation: NavigationModel
    reveal_on_pointer: bool
    accessibility_label: str
    virtual: VirtualItems
    def __init__(self, id: _Optional[str] = ..., items: _Optional[_Iterable[str]] = ..., groups: _Optional[_Iterable[_Union[Group, _Mapping]]] = ..., traps_focus: _Optional[bool] = ..., remembers_last_focused: _Optional[bool] = ..., preferred_focus: _Optional[str] = ..., selection_follows_focus: _Optional[bool] = ..., search: _Optional[_Union[SearchModel, str]] = ..., scroll: _Optional[_Union[ScrollAxis, str]] = ..., viewport: _Optional[_Union[Rect, _Mapping]] = ..., scroll_margin: _Optional[float] = ..., disabled: _Optional[bool] = ..., navigation: _Optional[_Union[NavigationModel, str]] = ..., reveal_on_pointer: _Optional[bool] = ..., accessibility_label: _Optional[str] = ..., virtual: _Optional[_Union[VirtualItems, _Mapping]] = ...) -> None: ...

class VirtualItems(_message.Message):
    __slots__ = ("count", "origin", "item_size", "spacing", "arrangement", "columns", "title_prefix", "content", "sizes")
    class ContentEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: int
        value: VirtualItemContent
        def __init__(self, key: _Optional[int] = ..., value: _Optional[_Union[VirtualItemContent, _Mapping]] = ...) -> None: ...
    COUNT_FIELD_NUMBER: _ClassVar[int]
    ORIGIN_FIELD_NUMBER: _ClassVar[int]
    ITEM_SIZE_FIELD_NUMBER: _ClassVar[int]
    SPACING_FIELD_NUMBER: _ClassVar[int]
    ARRANGEMENT_FIELD_NUMBER: _ClassVar[int]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    TITLE_PREFIX_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    SIZES_FIELD_NUMBER: _ClassVar[int]
    count: int
    origin: Point
    item_size: Size
    spacing: Size
    arrangement: VirtualArrangement
    columns: int
    title_prefix: str
    content: _containers.MessageMap[int, VirtualItemContent]
    sizes: _containers.RepeatedCompositeFieldContainer[SizeRun]
    def __init__(self, count: _Optional[int] = ..., origin: _Optional[_Union[Point, _Mapping]] = ..., item_size: _Optional[_Union[Size, _Mapping]] = ..., spacing: _Optional[_Union[Size, _Mapping]] = ..., arrangement: _Optional[_Union[VirtualArrangement, str]] = ..., columns: _Optional[int] = ..., title_prefix: _Optional[str] = ..., content: _Optional[_Mapping[int, VirtualItemContent]] = ..., sizes: _Optional[_Iterable[_Union[SizeRun, _Mapping]]] = ...) -> None: ...

class SizeRun(_message.Message):
    __slots__ = ("count", "length")
    COUNT_FIELD_NUMBER: _ClassVar[int]
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    count: int
    length: float
    def __init__(self, count: _Optional[int] = ..., length: _Optional[float] = ...) -> None: ...

class VirtualItemContent(_message.Message):
    __slots__ = ("title", "content", "unavailable", "key")
    TITLE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    UNAVAILABLE_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    title: str
    content: ItemContent
    unavailable: bool
    key: str
    def __init__(self, title: _Optional[str] = ..., content: _Optional[_Union[ItemContent, _Mapping]] = ..., unavailable: _Optional[bool] = ..., key: _Optional[str] = ...) -> None: ...

class SetVirtualContent(_message.Message):
    __slots__ = ("group", "items")
    class ItemsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: int
        value: VirtualItemContent
        def __init__(self, key: _Optional[int] = ..., value: _Optional[_Union[VirtualItemContent, _Mapping]] = ...) -> None: ...
    GROUP_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    group: str
    items: _containers.MessageMap[int, VirtualItemContent]
    def __init__(self, group: _Optional[str] = ..., items: _Optional[_Mapping[int, VirtualItemContent]] = ...) -> None: ...

class ItemsInView(_message.Message):
    __slots__ = ("group", "start", "end")
    GROUP_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    group: str
    start: int
    end: int
    def __init__(self, group: _Optional[str] = ..., start: _Optional[int] = ..., end: _Optional[int] = ...) -> None: ...

class PatchLayout(_message.Message):
    __slots__ = ("screen_id", "operations", "focus_item", "focus_group")
    SCREEN_ID_FIELD_NUMBER: _ClassVar[int]
    OPERATIONS_FIELD_NUMBER: _ClassVar[int]
    FOCUS_ITEM_FIELD_NUMBER: _ClassVar[int]
    FOCUS_GROUP_FIELD_NUMBER: _ClassVar[int]
    screen_id: str
    operations: _containers.RepeatedCompositeFieldContainer[PatchOperation]
    focus_item: str
    focus_group: str
    def __init__(self, screen_id: _Optional[str] = ..., operations: _Optional[_Iterable[_Union[PatchOperation, _Mapping]]] = ..., focus_item: _Optional[str] = ..., focus_group: _Optional[str] = ...) -> None: ...

class PatchOperation(_message.Message):
    __slots__ = ("add_item", "remove_item", "move_item", "set_item_available", "add_group", "remove_group", "set_group_enabled", "add_guide", "remove_guide", "set_guide_enabled", "set_virtual_content")
    ADD_ITEM_FIELD_NUMBER: _ClassVar[int]
    REMOVE_ITEM_FIELD_NUMBER: _ClassVar[int]
    MOVE_ITEM_FIELD_NUMBER: _ClassVar[int]
    SET_ITEM_AVAILABLE_FIELD_NUMBER: _ClassVar[int]
    ADD_GROUP_FIELD_NUMBER: _ClassVar[int]
    REMOVE_GROUP_FIELD_NUMBER: _ClassVar[int]
    SET_GROUP_ENABLED_FIELD_NUMBER: _ClassVar[int]
    ADD_GUIDE_FIELD_NUMBER: _ClassVar[int]
    REMOVE_GUIDE_FIELD_NUMBER: _ClassVar[int]
    SET_GUIDE_ENABLED_FIELD_NUMBER: _ClassVar[int]
    SET_VIRTUAL_CONTENT_FIELD_NUMBER: _ClassVar[int]
    add_item: AddItem
    remove_item: str
    move_item: MoveItem
    set_item_available: SetEnabled
    add_group: AddGroup
    remove_group: str
    set_group_enabled: SetEnabled
    add_guide: FocusGuide
    remove_guide: str
    set_guide_enabled: SetEnabled
    set_virtual_content: SetVirtualContent
    def __init__(self, add_item: _Optional[_Union[AddItem, _Mapping]] = ..., remove_item: _Optional[str] = ..., move_item: _Optional[_Union[MoveItem, _Mapping]] = ..., set_item_available: _Optional[_Union[SetEnabled, _Mapping]] = ..., add_group: _Optional[_Union[AddGroup, _Mapping]] = ..., remove_group: _Optional[str] = ..., set_group_enabled: _Optional[_Union[SetEnabled, _Mapping]] = ..., add_guide: _Optional[_Union[FocusGuide, _Mapping]] = ..., remove_guide: _Optional[str] = ..., set_guide_enabled: _Optional[_Union[SetEnabled, _Mapping]] = ..., set_virtual_content: _Optional[_Union[SetVirtualContent, _Mapping]] = ...) -> None: ...

class AddItem(_message.Message):
    __slots__ = ("item", "group", "before")
    ITEM_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    BEFORE_FIELD_NUMBER: _ClassVar[int]
    item: Item
    group: str
    before: str
    def __init__(self, item: _Optional[_Union[Item, _Mapping]] = ..., group: _Optional[str] = ..., before: _Optional[str] = ...) -> None: ...

class MoveItem(_message.Message):
    __slots__ = ("id", "frame")
    ID_FIELD_NUMBER: _ClassVar[int]
    FRAME_FIELD_NUMBER: _ClassVar[int]
    id: str
    frame: Rect
    def __init__(self, id: _Optional[str] = ..., frame: _Optional[_Union[Rect, _Mapping]] = ...) -> None: ...

class SetEnabled(_message.Message):
    __slots__ = ("id", "enabled")
    ID_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    id: str
    enabled: bool
    def __init__(self, id: _Optional[str] = ..., enabled: _Optional[bool] = ...) -> None: ...

class AddGroup(_message.Message):
    __slots__ = ("group", "parent")
    GROUP_FIELD_NUMBER: _ClassVar[int]
    PARENT_FIELD_NUMBER: _ClassVar[int]
    group: Group
    parent: str
    def __init__(self, group: _Optional[_Union[Group, _Mapping]] = ..., parent: _Optional[str] = ...) -> None: ...

class FocusRequest(_message.Message):
    __slots__ = ("screen_id", "item", "group", "any")
    SCREEN_ID_FIELD_NUMBER: _ClassVar[int]
    ITEM_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    ANY_FIELD_NUMBER: _ClassVar[int]
    screen_id: str
    item: str
    group: str
    any: str
    def __init__(self, screen_id: _Optional[str] = ..., item: _Optional[str] = ..., group: _Optional[str] = ..., any: _Optional[str] = ...) -> None: ...

class DebugRequest(_message.Message):
    __slots__ = ("screen_id", "explain_item", "tab_loop", "group_tree", "dry_run")
    SCREEN_ID_FIELD_NUMBER: _ClassVar[int]
    EXPLAIN_ITEM_FIELD_NUMBER: _ClassVar[int]
    TAB_LOOP_FIELD_NUMBER: _ClassVar[int]
    GROUP_TREE_FIELD_NUMBER: _ClassVar[int]
    DRY_RUN_FIELD_NUMBER: _ClassVar[int]
    screen_id: str
    explain_item: str
    tab_loop: bool
    group_tree: bool
    dry_run: str
    def __init__(self, screen_id: _Optional[str] = ..., explain_item: _Optional[str] = ..., tab_loop: _Optional[bool] = ..., group_tree: _Optional[bool] = ..., dry_run: _Optional[str] = ...) -> None: ...

class DebugReport(_message.Message):
    __slots__ = ("screen_id", "text")
    SCREEN_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    screen_id: str
    text: str
    def __init__(self, screen_id: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class Input(_message.Message):
    __slots__ = ("screen_id", "key", "touch", "text", "pointer", "press_id")
    SCREEN_ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    TOUCH_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    POINTER_FIELD_NUMBER: _ClassVar[int]
    PRESS_ID_FIELD_NUMBER: _ClassVar[int]
    screen_id: str
    key: KeyEvent
    touch: TouchEvent
    text: TextInput
    pointer: PointerEvent
    press_id: str
    def __init__(self, screen_id: _Optional[str] = ..., key: _Optional[_Union[KeyEvent, _Mapping]] = ..., touch: _Optional[_Union[TouchEvent, _Mapping]] = ..., text: _Optional[_Union[TextInput, _Mapping]] = ..., pointer: _Optional[_Union[PointerEvent, _Mapping]] = ..., press_id: _Optional[str] = ...) -> None: ...

class TouchEvent(_message.Message):
    __slots__ = ("phase", "x", "y", "timestamp_ns")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_NS_FIELD_NUMBER: _ClassVar[int]
    phase: TouchPhase
    x: float
    y: float
    timestamp_ns: int
    def __init__(self, phase: _Optional[_Union[TouchPhase, str]] = ..., x: _Optional[float] = ..., y: _Optional[float] = ..., timestamp_ns: _Optional[int] = ...) -> None: ...

class PointerEvent(_message.Message):
    __slots__ = ("phase", "x", "y", "relative", "buttons", "timestamp_ns")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    RELATIVE_FIELD_NUMBER: _ClassVar[int]
    BUTTONS_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_NS_FIELD_NUMBER: _ClassVar[int]
    phase: PointerPhase
    x: float
    y: float
    relative: bool
    buttons: int
    timestamp_ns: int
    def __init__(self, phase: _Optional[_Union[PointerPhase, str]] = ..., x: _Optional[float] = ..., y: _Optional[float] = ..., relative: _Optional[bool] = ..., buttons: _Optional[int] = ..., timestamp_ns: _Optional[int] = ...) -> None: ...

class PointerState(_message.Message):
    __slots__ = ("x", "y", "visible", "shape", "effect", "target")
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    VISIBLE_FIELD_NUMBER: _ClassVar[int]
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    EFFECT_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    x: float
    y: float
    visible: bool
    shape: str
    effect: PointerEffectStyle
    target: str
    def __init__(self, x: _Optional[float] = ..., y: _Optional[float] = ..., visible: _Optional[bool] = ..., shape: _Optional[str] = ..., effect: _Optional[_Union[PointerEffectStyle, str]] = ..., target: _Optional[str] = ...) -> None: ...

class TextInput(_message.Message):
    __slots__ = ("set", "append", "clear")
    SET_FIELD_NUMBER: _ClassVar[int]
    APPEND_FIELD_NUMBER: _ClassVar[int]
    CLEAR_FIELD_NUMBER: _ClassVar[int]
    set: str
    append: str
    clear: bool
    def __init__(self, set: _Optional[str] = ..., append: _Optional[str] = ..., clear: _Optional[bool] = ...) -> None: ...

class KeyEvent(_message.Message):
    __slots__ = ("key", "phase", "timestamp_ns")
    KEY_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_NS_FIELD_NUMBER: _ClassVar[int]
    key: Key
    phase: KeyPhase
    timestamp_ns: int
    def __init__(self, key: _Optional[_Union[Key, str]] = ..., phase: _Optional[_Union[KeyPhase, str]] = ..., timestamp_ns: _Optional[int] = ...) -> None: ...

class SnapshotRequest(_message.Message):
    __slots__ = ("screen_id", "app")
    SCREEN_ID_FIELD_NUMBER: _ClassVar[int]
    APP_FIELD_NUMBER: _ClassVar[int]
    screen_id: str
    app: bool
    def __init__(self, screen_id: _Optional[str] = ..., app: _Optional[bool] = ...) -> None: ...

class AppReaction(_message.Message):
    __slots__ = ("screen_id", "state_seq", "commands")
    SCREEN_ID_FIELD_NUMBER: _ClassVar[int]
    STATE_SEQ_FIELD_NUMBER: _ClassVar[int]
    COMMANDS_FIELD_NUMBER: _ClassVar[int]
    screen_id: str
    state_seq: int
    commands: _containers.RepeatedCompositeFieldContainer[AppCommand]
    def __init__(self, screen_id: _Optional[str] = ..., state_seq: _Optional[int] = ..., commands: _Optional[_Iterable[_Union[AppCommand, _Mapping]]] = ...) -> None: ...

class AppCommand(_message.Message):
    __slots__ = ("patch", "focus", "replace_layout")
    PATCH_FIELD_NUMBER: _ClassVar[int]
    FOCUS_FIELD_NUMBER: _ClassVar[int]
    REPLACE_LAYOUT_FIELD_NUMBER: _ClassVar[int]
    patch: PatchLayout
    focus: FocusRequest
    replace_layout: Layout
    def __init__(self, patch: _Optional[_Union[PatchLayout, _Mapping]] = ..., focus: _Optional[_Union[FocusRequest, _Mapping]] = ..., replace_layout: _Optional[_Union[Layout, _Mapping]] = ...) -> None: ...

class ItemState(_message.Message):
    __slots__ = ("id", "state")
    ID_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    id: str
    state: FocusDisplayState
    def __init__(self, id: _Optional[str] = ..., state: _Optional[_Union[FocusDisplayState, str]] = ...) -> None: ...

class Cause(_message.Message):
    __slots__ = ("sender", "seq")
    SENDER_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    sender: str
    seq: int
    def __init__(self, sender: _Optional[str] = ..., seq: _Optional[int] = ...) -> None: ...

class FocusUpdate(_message.Message):
    __slots__ = ("previous", "next", "heading", "cause")
    PREVIOUS_FIELD_NUMBER: _ClassVar[int]
    NEXT_FIELD_NUMBER: _ClassVar[int]
    HEADING_FIELD_NUMBER: _ClassVar[int]
    CAUSE_FIELD_NUMBER: _ClassVar[int]
    previous: str
    next: str
    heading: Heading
    cause: Cause
    def __init__(self, previous: _Optional[str] = ..., next: _Optional[str] = ..., heading: _Optional[_Union[Heading, str]] = ..., cause: _Optional[_Union[Cause, _Mapping]] = ...) -> None: ...

class ScrollOffset(_message.Message):
    __slots__ = ("group", "x", "y")
    GROUP_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    group: str
    x: float
    y: float
    def __init__(self, group: _Optional[str] = ..., x: _Optional[float] = ..., y: _Optional[float] = ...) -> None: ...

class FocusDenial(_message.Message):
    __slots__ = ("reason", "target", "message")
    REASON_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    reason: FocusDenialReason
    target: str
    message: str
    def __init__(self, reason: _Optional[_Union[FocusDenialReason, str]] = ..., target: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class FocusEffect(_message.Message):
    __slots__ = ("focus_changed", "movement_failed", "highlighted", "activated", "selection_changed", "scrolled", "focus_request_denied", "layout_rejected", "text_changed", "back", "home", "play_pause", "context_menu", "double_tap", "items_in_view")
    FOCUS_CHANGED_FIELD_NUMBER: _ClassVar[int]
    MOVEMENT_FAILED_FIELD_NUMBER: _ClassVar[int]
    HIGHLIGHTED_FIELD_NUMBER: _ClassVar[int]
    ACTIVATED_FIELD_NUMBER: _ClassVar[int]
    SELECTION_CHANGED_FIELD_NUMBER: _ClassVar[int]
    SCROLLED_FIELD_NUMBER: _ClassVar[int]
    FOCUS_REQUEST_DENIED_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_REJECTED_FIELD_NUMBER: _ClassVar[int]
    TEXT_CHANGED_FIELD_NUMBER: _ClassVar[int]
    BACK_FIELD_NUMBER: _ClassVar[int]
    HOME_FIELD_NUMBER: _ClassVar[int]
    PLAY_PAUSE_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_MENU_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_TAP_FIELD_NUMBER: _ClassVar[int]
    ITEMS_IN_VIEW_FIELD_NUMBER: _ClassVar[int]
    focus_changed: FocusUpdate
    movement_failed: Heading
    highlighted: str
    activated: str
    selection_changed: SelectionChange
    scrolled: ScrollOffset
    focus_request_denied: FocusDenial
    layout_rejected: str
    text_changed: TextChange
    back: bool
    home: bool
    play_pause: str
    context_menu: str
    double_tap: Key
    items_in_view: ItemsInView
    def __init__(self, focus_changed: _Optional[_Union[FocusUpdate, _Mapping]] = ..., movement_failed: _Optional[_Union[Heading, str]] = ..., highlighted: _Optional[str] = ..., activated: _Optional[str] = ..., selection_changed: _Optional[_Union[SelectionChange, _Mapping]] = ..., scrolled: _Optional[_Union[ScrollOffset, _Mapping]] = ..., focus_request_denied: _Optional[_Union[FocusDenial, _Mapping]] = ..., layout_rejected: _Optional[str] = ..., text_changed: _Optional[_Union[TextChange, _Mapping]] = ..., back: _Optional[bool] = ..., home: _Optional[bool] = ..., play_pause: _Optional[str] = ..., context_menu: _Optional[str] = ..., double_tap: _Optional[_Union[Key, str]] = ..., items_in_view: _Optional[_Union[ItemsInView, _Mapping]] = ...) -> None: ...

class TextChange(_message.Message):
    __slots__ = ("id", "value")
    ID_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    id: str
    value: str
    def __init__(self, id: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...

class Point(_message.Message):
    __slots__ = ("x", "y")
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    x: float
    y: float
    def __init__(self, x: _Optional[float] = ..., y: _Optional[float] = ...) -> None: ...

class Shadow(_message.Message):
    __slots__ = ("radius", "offset_y", "opacity")
    RADIUS_FIELD_NUMBER: _ClassVar[int]
    OFFSET_Y_FIELD_NUMBER: _ClassVar[int]
    OPACITY_FIELD_NUMBER: _ClassVar[int]
    radius: float
    offset_y: float
    opacity: float
    def __init__(self, radius: _Optional[float] = ..., offset_y: _Optional[float] = ..., opacity: _Optional[float] = ...) -> None: ...

class Parallax(_message.Message):
    __slots__ = ("item", "rotate_x", "rotate_y", "scale", "translate", "shadow", "specular")
    ITEM_FIELD_NUMBER: _ClassVar[int]
    ROTATE_X_FIELD_NUMBER: _ClassVar[int]
    ROTATE_Y_FIELD_NUMBER: _ClassVar[int]
    SCALE_FIELD_NUMBER: _ClassVar[int]
    TRANSLATE_FIELD_NUMBER: _ClassVar[int]
    SHADOW_FIELD_NUMBER: _ClassVar[int]
    SPECULAR_FIELD_NUMBER: _ClassVar[int]
    item: str
    rotate_x: float
    rotate_y: float
    scale: float
    translate: _containers.RepeatedCompositeFieldContainer[Point]
    shadow: Shadow
    specular: Point
    def __init__(self, item: _Optional[str] = ..., rotate_x: _Optional[float] = ..., rotate_y: _Optional[float] = ..., scale: _Optional[float] = ..., translate: _Optional[_Iterable[_Union[Point, _Mapping]]] = ..., shadow: _Optional[_Union[Shadow, _Mapping]] = ..., specular: _Optional[_Union[Point, _Mapping]] = ...) -> None: ...

class SelectionChange(_message.Message):
    __slots__ = ("id", "selected")
    ID_FIELD_NUMBER: _ClassVar[int]
    SELECTED_FIELD_NUMBER: _ClassVar[int]
    id: str
    selected: bool
    def __init__(self, id: _Optional[str] = ..., selected: _Optional[bool] = ...) -> None: ...

class ScreenState(_message.Message):
    __slots__ = ("screen_id", "epoch", "seq", "layout", "focused", "states", "scroll", "parallax", "text", "editing_text", "pointer", "items_in_view", "announcement")
    class TextEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    SCREEN_ID_FIELD_NUMBER: _ClassVar[int]
    EPOCH_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_FIELD_NUMBER: _ClassVar[int]
    FOCUSED_FIELD_NUMBER: _ClassVar[int]
    STATES_FIELD_NUMBER: _ClassVar[int]
    SCROLL_FIELD_NUMBER: _ClassVar[int]
    PARALLAX_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    EDITING_TEXT_FIELD_NUMBER: _ClassVar[int]
    POINTER_FIELD_NUMBER: _ClassVar[int]
    ITEMS_IN_VIEW_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENT_FIELD_NUMBER: _ClassVar[int]
    screen_id: str
    epoch: int
    seq: int
    layout: Layout
    focused: str
    states: _containers.RepeatedCompositeFieldContainer[ItemState]
    scroll: _containers.RepeatedCompositeFieldContainer[ScrollOffset]
    parallax: Parallax
    text: _containers.ScalarMap[str, str]
    editing_text: bool
    pointer: PointerState
    items_in_view: _containers.RepeatedCompositeFieldContainer[ItemsInView]
    announcement: Announcement
    def __init__(self, screen_id: _Optional[str] = ..., epoch: _Optional[int] = ..., seq: _Optional[int] = ..., layout: _Optional[_Union[Layout, _Mapping]] = ..., focused: _Optional[str] = ..., states: _Optional[_Iterable[_Union[ItemState, _Mapping]]] = ..., scroll: _Optional[_Iterable[_Union[ScrollOffset, _Mapping]]] = ..., parallax: _Optional[_Union[Parallax, _Mapping]] = ..., text: _Optional[_Mapping[str, str]] = ..., editing_text: _Optional[bool] = ..., pointer: _Optional[_Union[PointerState, _Mapping]] = ..., items_in_view: _Optional[_Iterable[_Union[ItemsInView, _Mapping]]] = ..., announcement: _Optional[_Union[Announcement, _Mapping]] = ...) -> None: ...

class StateDelta(_message.Message):
    __slots__ = ("screen_id", "epoch", "seq", "focused", "changed", "effects", "cause", "scroll", "parallax", "text", "editing_text", "pointer", "announcement")
    class TextEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    SCREEN_ID_FIELD_NUMBER: _ClassVar[int]
    EPOCH_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    FOCUSED_FIELD_NUMBER: _ClassVar[int]
    CHANGED_FIELD_NUMBER: _ClassVar[int]
    EFFECTS_FIELD_NUMBER: _ClassVar[int]
    CAUSE_FIELD_NUMBER: _ClassVar[int]
    SCROLL_FIELD_NUMBER: _ClassVar[int]
    PARALLAX_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    EDITING_TEXT_FIELD_NUMBER: _ClassVar[int]
    POINTER_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENT_FIELD_NUMBER: _ClassVar[int]
    screen_id: str
    epoch: int
    seq: int
    focused: str
    changed: _containers.RepeatedCompositeFieldContainer[ItemState]
    effects: _containers.RepeatedCompositeFieldContainer[FocusEffect]
    cause: Cause
    scroll: _containers.RepeatedCompositeFieldContainer[ScrollOffset]
    parallax: Parallax
    text: _containers.ScalarMap[str, str]
    editing_text: bool
    pointer: PointerState
    announcement: Announcement
    def __init__(self, screen_id: _Optional[str] = ..., epoch: _Optional[int] = ..., seq: _Optional[int] = ..., focused: _Optional[str] = ..., changed: _Optional[_Iterable[_Union[ItemState, _Mapping]]] = ..., effects: _Optional[_Iterable[_Union[FocusEffect, _Mapping]]] = ..., cause: _Optional[_Union[Cause, _Mapping]] = ..., scroll: _Optional[_Iterable[_Union[ScrollOffset, _Mapping]]] = ..., parallax: _Optional[_Union[Parallax, _Mapping]] = ..., text: _Optional[_Mapping[str, str]] = ..., editing_text: _Optional[bool] = ..., pointer: _Optional[_Union[PointerState, _Mapping]] = ..., announcement: _Optional[_Union[Announcement, _Mapping]] = ...) -> None: ...

class Announcement(_message.Message):
    __slots__ = ("parts", "interrupt", "text")
    PARTS_FIELD_NUMBER: _ClassVar[int]
    INTERRUPT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    parts: _containers.RepeatedCompositeFieldContainer[AnnouncementPart]
    interrupt: bool
    text: str
    def __init__(self, parts: _Optional[_Iterable[_Union[AnnouncementPart, _Mapping]]] = ..., interrupt: _Optional[bool] = ..., text: _Optional[str] = ...) -> None: ...

class AnnouncementPart(_message.Message):
    __slots__ = ("kind", "text")
    KIND_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    kind: AnnouncementKind
    text: str
    def __init__(self, kind: _Optional[_Union[AnnouncementKind, str]] = ..., text: _Optional[str] = ...) -> None: ...

class Heartbeat(_message.Message):
    __slots__ = ("epoch", "screen_id", "screen_grace_ms")
    EPOCH_FIELD_NUMBER: _ClassVar[int]
    SCREEN_ID_FIELD_NUMBER: _ClassVar[int]
    SCREEN_GRACE_MS_FIELD_NUMBER: _ClassVar[int]
    epoch: int
    screen_id: str
    screen_grace_ms: int
    def __init__(self, epoch: _Optional[int] = ..., screen_id: _Optional[str] = ..., screen_grace_ms: _Optional[int] = ...) -> None: ...

class Ack(_message.Message):
    __slots__ = ("state_seq", "focused", "effects", "screen_id", "editing_text", "app")
    STATE_SEQ_FIELD_NUMBER: _ClassVar[int]
    FOCUSED_FIELD_NUMBER: _ClassVar[int]
    EFFECTS_FIELD_NUMBER: _ClassVar[int]
    SCREEN_ID_FIELD_NUMBER: _ClassVar[int]
    EDITING_TEXT_FIELD_NUMBER: _ClassVar[int]
    APP_FIELD_NUMBER: _ClassVar[int]
    state_seq: int
    focused: str
    effects: _containers.RepeatedCompositeFieldContainer[FocusEffect]
    screen_id: str
    editing_text: bool
    app: bool
    def __init__(self, state_seq: _Optional[int] = ..., focused: _Optional[str] = ..., effects: _Optional[_Iterable[_Union[FocusEffect, _Mapping]]] = ..., screen_id: _Optional[str] = ..., editing_text: _Optional[bool] = ..., app: _Optional[bool] = ...) -> None: ...

class Error(_message.Message):
    __slots__ = ("code", "message", "retry_after_ms")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    RETRY_AFTER_MS_FIELD_NUMBER: _ClassVar[int]
    code: ErrorCode
    message: str
    retry_after_ms: int
    def __init__(self, code: _Optional[_Union[ErrorCode, str]] = ..., message: _Optional[str] = ..., retry_after_ms: _Optional[int] = ...) -> None: ...

class PairRequest(_message.Message):
    __slots__ = ("name", "public_key", "nonce", "next_round", "screen_id")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    NONCE_FIELD_NUMBER: _ClassVar[int]
    NEXT_ROUND_FIELD_NUMBER: _ClassVar[int]
    SCREEN_ID_FIELD_NUMBER: _ClassVar[int]
    name: str
    public_key: bytes
    nonce: bytes
    next_round: bool
    screen_id: str
    def __init__(self, name: _Optional[str] = ..., public_key: _Optional[bytes] = ..., nonce: _Optional[bytes] = ..., next_round: _Optional[bool] = ..., screen_id: _Optional[str] = ...) -> None: ...

class PairChallenge(_message.Message):
    __slots__ = ("nonce", "pin_digits", "expires_in_ms", "broker_key", "share")
    NONCE_FIELD_NUMBER: _ClassVar[int]
    PIN_DIGITS_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_MS_FIELD_NUMBER: _ClassVar[int]
    BROKER_KEY_FIELD_NUMBER: _ClassVar[int]
    SHARE_FIELD_NUMBER: _ClassVar[int]
    nonce: bytes
    pin_digits: int
    expires_in_ms: int
    broker_key: bytes
    share: bytes
    def __init__(self, nonce: _Optional[bytes] = ..., pin_digits: _Optional[int] = ..., expires_in_ms: _Optional[int] = ..., broker_key: _Optional[bytes] = ..., share: _Optional[bytes] = ...) -> None: ...

class PairProof(_message.Message):
    __slots__ = ("proof", "public_key", "share")
    PROOF_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    SHARE_FIELD_NUMBER: _ClassVar[int]
    proof: bytes
    public_key: bytes
    share: bytes
    def __init__(self, proof: _Optional[bytes] = ..., public_key: _Optional[bytes] = ..., share: _Optional[bytes] = ...) -> None: ...

class Paired(_message.Message):
    __slots__ = ("peer_id", "broker_proof")
    PEER_ID_FIELD_NUMBER: _ClassVar[int]
    BROKER_PROOF_FIELD_NUMBER: _ClassVar[int]
    peer_id: str
    broker_proof: bytes
    def __init__(self, peer_id: _Optional[str] = ..., broker_proof: _Optional[bytes] = ...) -> None: ...

class PairingPrompt(_message.Message):
    __slots__ = ("active", "pin", "remote_name", "broker_fingerprint", "expires_in_ms", "sealed", "closed")
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    PIN_FIELD_NUMBER: _ClassVar[int]
    REMOTE_NAME_FIELD_NUMBER: _ClassVar[int]
    BROKER_FINGERPRINT_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_MS_FIELD_NUMBER: _ClassVar[int]
    SEALED_FIELD_NUMBER: _ClassVar[int]
    CLOSED_FIELD_NUMBER: _ClassVar[int]
    active: bool
    pin: str
    remote_name: str
    broker_fingerprint: str
    expires_in_ms: int
    sealed: _containers.RepeatedCompositeFieldContainer[SealedPin]
    closed: bool
    def __init__(self, active: _Optional[bool] = ..., pin: _Optional[str] = ..., remote_name: _Optional[str] = ..., broker_fingerprint: _Optional[str] = ..., expires_in_ms: _Optional[int] = ..., sealed: _Optional[_Iterable[_Union[SealedPin, _Mapping]]] = ..., closed: _Optional[bool] = ...) -> None: ...

class OpenPairing(_message.Message):
    __slots__ = ("screen_id",)
    SCREEN_ID_FIELD_NUMBER: _ClassVar[int]
    screen_id: str
    def __init__(self, screen_id: _Optional[str] = ...) -> None: ...

class SealedPin(_message.Message):
    __slots__ = ("screen_key", "box")
    SCREEN_KEY_FIELD_NUMBER: _ClassVar[int]
    BOX_FIELD_NUMBER: _ClassVar[int]
    screen_key: bytes
    box: bytes
    def __init__(self, screen_key: _Optional[bytes] = ..., box: _Optional[bytes] = ...) -> None: ...
