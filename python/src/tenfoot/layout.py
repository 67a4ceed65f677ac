"""Builders for layouts, patches and the commands an app answers with.

Thin helpers over the protocol's messages (`tenfoot.pb`), so an app reads like the Swift
template: `item(...)`, `group(...)`, `virtual_group(...)`, `layout(...)`, and the commands `patch(...)`,
`focus(...)`, `replace_layout(...)` with the patch operations `add_group`, `add_item`,
`remove_group`, `remove_item`, `move_item`, `set_item_available`. Every builder returns a
protocol message, so anything the helpers do not cover can be set on it directly.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Optional, Sequence, Tuple, Union

from .v1 import tenfoot_pb2 as pb

RectLike = Union[pb.Rect, Tuple[float, float, float, float]]
Pair = Tuple[float, float]
CANVAS = (1920.0, 1080.0)
# A virtual group's arrangement → its wire value and the axis it scrolls along.
_ARRANGEMENTS = {
    "row": (pb.VIRTUAL_ARRANGEMENT_ROW, pb.SCROLL_AXIS_HORIZONTAL),
    "column": (pb.VIRTUAL_ARRANGEMENT_COLUMN, pb.SCROLL_AXIS_VERTICAL),
    "grid": (pb.VIRTUAL_ARRANGEMENT_GRID, pb.SCROLL_AXIS_BOTH),
}
_SCROLL = {"horizontal": pb.SCROLL_AXIS_HORIZONTAL, "vertical": pb.SCROLL_AXIS_VERTICAL,
           "both": pb.SCROLL_AXIS_BOTH}


def rect(value: RectLike) -> pb.Rect:
    """A Rect from (x, y, width, height), or the Rect itself."""
    if isinstance(value, pb.Rect):
        return value
    x, y, width, height = value
    return pb.Rect(x=x, y=y, width=width, height=height)


def item(id: str, title: str, frame: RectLike, *, toggles: bool = False,
         unavailable: bool = False, subtitle: Optional[str] = None, body: Optional[str] = None,
         badge: Optional[str] = None, image: Optional[str] = None,
         accent: Optional[str] = None) -> pb.Item:
    """An item. Unlike the wire default it is momentary (a button) unless `toggles` (then
    activating it flips its selected flag), like the Swift template's `toggles: false`."""
    content = pb.ItemContent()
    for name, value in (("subtitle", subtitle), ("body", body), ("badge", badge),
                        ("image", image), ("accent", accent)):
        if value is not None:
            setattr(content, name, value)
    made = pb.Item(id=id, title=title, frame=rect(frame), momentary=not toggles,
                   unavailable=unavailable)
    if content.ListFields():
        made.content.CopyFrom(content)
    return made


def _ids(items: Iterable[Union[str, pb.Item]]) -> list:
    return [each if isinstance(each, str) else each.id for each in items]


def group(id: str, items: Iterable[Union[str, pb.Item]] = (), *, traps_focus: bool = False,
          remembers_last_focused: bool = False, groups: Sequence[pb.Group] = ()) -> pb.Group:
    """A focus group of items (ids or Items) and nested groups."""
    return pb.Group(id=id, items=_ids(items), traps_focus=traps_focus,
                    remembers_last_focused=remembers_last_focused, groups=list(groups))


def virtual_group(id: str, count: int, item_size: Pair, *, spacing: Pair = (0, 0),
                  origin: Pair = (0, 0), arrangement: str = "row", columns: int = 0,
                  title_prefix: str = "", viewport: Optional[RectLike] = None,
                  scroll: Optional[str] = None,
                  sizes: Sequence[Tuple[int, float]] = ()) -> pb.Group:
    """A virtual group: `count` items of one size declared by their geometry instead of
    listed, so a catalog of a million titles costs what is on screen (docs/layout-format.md,
    "Virtual groups"). Item i is `f"{id}#{i}"`, titled `title_prefix` and i + 1, at column
    i % columns, row i // columns of `arrangement` ("row", "column", or "grid" with
    `columns`), from `origin` (item 0's frame origin), `item_size` plus `spacing` apart.

    `sizes` gives a row's or a column's items lengths of their own along it, as runs
    `(count, length)` covering exactly `count` items (an EPG row of programmes of different
    durations); the cross size stays `item_size`'s.

    With a `viewport` the group scrolls along its arrangement (a row sideways, a column up and
    down, a grid both ways) unless `scroll` ("horizontal", "vertical", "both") says otherwise;
    without one it does not scroll."""
    if arrangement not in _ARRANGEMENTS:
        raise ValueError(f"arrangement {arrangement!r} is not 'row', 'column' or 'grid'")
    if (arrangement == "grid") != (columns > 0):
        raise ValueError("a grid needs columns (1 or more), and only a grid takes them")
    if sizes and arrangement == "grid":
        raise ValueError("only a row or a column takes sizes, not a grid")
    if scroll is not None and scroll not in _SCROLL:
        raise ValueError(f"scroll {scroll!r} is not 'horizontal', 'vertical' or 'both'")
    kind, along = _ARRANGEMENTS[arrangement]
    items = pb.VirtualItems(count=count, item_size=pb.Size(width=item_size[0],
                                                           height=item_size[1]),
                            arrangement=kind, columns=columns, title_prefix=title_prefix,
                            sizes=[pb.SizeRun(count=n, length=length) for n, length in sizes])
    if tuple(origin) != (0, 0):  # Unset on the wire means 0, 0, as the Swift side writes it.
        items.origin.CopyFrom(pb.Point(x=origin[0], y=origin[1]))
    if tuple(spacing) != (0, 0):
        items.spacing.CopyFrom(pb.Size(width=spacing[0], height=spacing[1]))
    made = pb.Group(id=id, virtual=items)
    if viewport is not None:
        made.viewport.CopyFrom(rect(viewport))
        made.scroll = _SCROLL[scroll] if scroll is not None else along
    elif scroll is not None:
        raise ValueError("a scrolling group needs a viewport")
    return made


def layout(items: Iterable[pb.Item], groups: Sequence[pb.Group] = (), *,
           canvas: Tuple[float, float] = CANVAS, initial_focus: str = "") -> pb.Layout:
    """A layout on a canvas (1920x1080 points unless given)."""
    width, height = canvas
    return pb.Layout(canvas=pb.Size(width=width, height=height), items=list(items),
                     groups=list(groups), initial_focus=initial_focus)


# Patch operations.

def add_group(group_or_id: Union[pb.Group, str], *, parent: str = "",
              traps_focus: bool = False) -> pb.PatchOperation:
    """Adds a group (a Group, or an empty one by id) under `parent` (top level if empty)."""
    added = group_or_id if isinstance(group_or_id, pb.Group) else group(
        group_or_id, traps_focus=traps_focus)
    return pb.PatchOperation(add_group=pb.AddGroup(group=added, parent=parent))


def add_item(added: pb.Item, *, group: str = "") -> pb.PatchOperation:
    """Adds an item to `group` (top level if empty)."""
    return pb.PatchOperation(add_item=pb.AddItem(item=added, group=group))


def remove_group(id: str) -> pb.PatchOperation:
    """Removes a group and everything in it."""
    return pb.PatchOperation(remove_group=id)


def remove_item(id: str) -> pb.PatchOperation:
    """Removes an item."""
    return pb.PatchOperation(remove_item=id)


def move_item(id: str, frame: RectLike) -> pb.PatchOperation:
    """Moves (or resizes) an item."""
    return pb.PatchOperation(move_item=pb.MoveItem(id=id, frame=rect(frame)))


def set_item_available(id: str, available: bool) -> pb.PatchOperation:
    """Makes an item available or unavailable."""
    return pb.PatchOperation(set_item_available=pb.SetEnabled(id=id, enabled=available))


# Commands.

def patch(*operations: pb.PatchOperation, focus_item: Optional[str] = None,
          focus_group: Optional[str] = None) -> pb.AppCommand:
    """Changes part of the layout, then (in the same step) focuses an item or a group."""
    if focus_item is not None and focus_group is not None:
        raise ValueError("a patch focuses an item or a group, not both")
    change = pb.PatchLayout(operations=list(operations))
    if focus_item is not None:
        change.focus_item = focus_item
    if focus_group is not None:
        change.focus_group = focus_group
    return pb.AppCommand(patch=change)


def focus(target: str, *, group: bool = False) -> pb.AppCommand:
    """Asks for focus on an item (or, with `group`, a group)."""
    request = pb.FocusRequest(group=target) if group else pb.FocusRequest(item=target)
    return pb.AppCommand(focus=request)


def virtual_content(title: Optional[str] = None, *, unavailable: bool = False,
                    subtitle: Optional[str] = None, body: Optional[str] = None,
                    badge: Optional[str] = None, image: Optional[str] = None,
                    accent: Optional[str] = None, key: Optional[str] = None
                    ) -> pb.VirtualItemContent:
    """What an app supplies for one item of a virtual group (unset parts: the placeholder).
    A `key` (an id, unique in the group) names the item as `f"{group}#={key}"` too, and focus,
    selection and remembered focus follow it when a patch moves it to another index."""
    made = pb.VirtualItemContent(unavailable=unavailable)
    if key is not None:
        made.key = key
    if title is not None:
        made.title = title
    for name, value in (("subtitle", subtitle), ("body", body), ("badge", badge),
                        ("image", image), ("accent", accent)):
        if value is not None:
            setattr(made.content, name, value)
    return made


def set_virtual_content(group: str, items: Mapping[int, Union[str, pb.VirtualItemContent]]
                        ) -> pb.AppCommand:
    """Supplies content for items of a virtual group by index (a title, or
    `virtual_content(...)`): the answer to `items_in_view`."""
    made = pb.SetVirtualContent(group=group)
    for index, content in items.items():
        made.items[index].CopyFrom(
            virtual_content(content) if isinstance(content, str) else content)
    return pb.AppCommand(patch=pb.PatchLayout(
        operations=[pb.PatchOperation(set_virtual_content=made)]))


def replace_layout(new: pb.Layout) -> pb.AppCommand:
    """Replaces the screen's whole layout (a new page)."""
    return pb.AppCommand(replace_layout=new)
