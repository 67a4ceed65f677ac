"""The app model without sockets: events from frames, handlers, the commands they return,
and the layout builders the example uses."""

import unittest

import tenfoot
from tenfoot import pb


def frame(effects=(), groups=(), pointer=None, seq=2):
    layout = tenfoot.layout([tenfoot.item("a", "A", (0, 0, 10, 10))], list(groups))
    return tenfoot.Frame(screen="main", epoch=1, seq=seq, layout=layout, focused="a",
                         states={}, effects=list(effects), pointer=pointer)


class Events(unittest.TestCase):
    def test_each_effect_becomes_its_event_in_order(self):
        effects = [
            pb.FocusEffect(focus_changed=pb.FocusUpdate(previous="a", next="b")),
            pb.FocusEffect(activated="b"),
            pb.FocusEffect(selection_changed=pb.SelectionChange(id="b", selected=True)),
            pb.FocusEffect(text_changed=pb.TextChange(id="t", value="hi")),
            pb.FocusEffect(back=True), pb.FocusEffect(home=True),
            pb.FocusEffect(play_pause=""), pb.FocusEffect(context_menu="b"),
            pb.FocusEffect(movement_failed=pb.HEADING_LEFT),  # Not an app event.
        ]
        self.assertEqual(tenfoot.events_in(frame(effects), None), [
            tenfoot.Event("focus_changed", ("a", "b")), tenfoot.Event("activated", ("b",)),
            tenfoot.Event("selection_changed", ("b", True)),
            tenfoot.Event("text_changed", ("t", "hi")), tenfoot.Event("back"),
            tenfoot.Event("home"), tenfoot.Event("play_pause", (None,)),
            tenfoot.Event("context_menu", ("b",)),
        ])

    def test_items_in_view_come_from_deltas_and_snapshots_and_are_answered_with_content(self):
        wanted = pb.ItemsInView(group="titles", start=12, end=18)
        self.assertEqual(tenfoot.events_in(frame([pb.FocusEffect(items_in_view=wanted)]), None),
                         [tenfoot.Event("items_in_view", ("titles", range(12, 18)))])
        sync = tenfoot.StateSync("main")
        snapshot = pb.ScreenState(screen_id="main", epoch=1, seq=1, items_in_view=[wanted])
        _, shown = sync.apply_snapshot(snapshot)
        self.assertEqual(tenfoot.events_in(shown, None),
                         [tenfoot.Event("items_in_view", ("titles", range(12, 18)))])
        app = tenfoot.App()

        @app.on_items_in_view
        def supply(group, indices, screen):
            return tenfoot.set_virtual_content(group, {
                i: tenfoot.virtual_content(f"Movie {i}", subtitle="1999", unavailable=i == 13)
                for i in indices})
        [command] = app.react(tenfoot.Event("items_in_view", ("titles", range(12, 14))),
                              tenfoot.Screen(shown))
        content = command.patch.operations[0].set_virtual_content
        self.assertEqual(content.group, "titles")
        self.assertEqual(dict(content.items), {
            12: pb.VirtualItemContent(title="Movie 12", content=pb.ItemContent(subtitle="1999")),
            13: pb.VirtualItemContent(title="Movie 13", content=pb.ItemContent(subtitle="1999"),
                                      unavailable=True)})
        self.assertEqual(tenfoot.set_virtual_content("t", {1: "One"}).patch.operations[0]
                         .set_virtual_content.items[1].title, "One")

    def test_a_focus_change_to_nothing_has_none(self):
        effect = pb.FocusEffect(focus_changed=pb.FocusUpdate(previous="a"))
        self.assertEqual(tenfoot.events_in(frame([effect]), None),
                         [tenfoot.Event("focus_changed", ("a", None))])

    def test_a_pointer_change_is_an_event_only_against_a_previous_frame(self):
        moved = pb.PointerState(x=3, y=4, visible=True)
        self.assertEqual(tenfoot.events_in(frame(pointer=moved), None), [])
        self.assertEqual(tenfoot.events_in(frame(pointer=moved), frame()),
                         [tenfoot.Event("pointer", (moved,))])


class Handlers(unittest.TestCase):
    def test_handlers_get_the_event_arguments_and_the_screen(self):
        app = tenfoot.App()
        seen = []

        @app.on_activated
        def opened(item, screen):
            seen.append((item, screen.id, screen.focused, screen.has_group("page")))
            return tenfoot.focus("a")

        @app.on_activated
        def logged(item, screen):
            return None

        @app.on_back
        def back(screen):
            return [tenfoot.focus("a"), tenfoot.focus("page", group=True)]

        view = tenfoot.Screen(frame(groups=[tenfoot.group("outer", groups=[
            tenfoot.group("page")])]))
        self.assertEqual(app.react(tenfoot.Event("activated", ("a",)), view),
                         [tenfoot.focus("a")])
        self.assertEqual(seen, [("a", "main", "a", True)])
        self.assertEqual(len(app.react(tenfoot.Event("back"), view)), 2)
        self.assertEqual(app.react(tenfoot.Event("home"), view), [])
        self.assertEqual(view.item("a").title, "A")
        self.assertIsNone(view.item("zz"))

    def test_an_app_without_a_layout_must_attach(self):
        with self.assertRaises(ValueError):
            tenfoot.App().run(tenfoot.Endpoints.of("ipc:///nowhere/c", "ipc:///nowhere/s"))


class Builders(unittest.TestCase):
    def test_items_are_buttons_unless_they_toggle_and_carry_content(self):
        button = tenfoot.item("a", "A", (1, 2, 3, 4), subtitle="s", badge="New")
        self.assertTrue(button.momentary)
        self.assertEqual((button.frame.x, button.frame.height), (1, 4))
        self.assertEqual((button.content.subtitle, button.content.badge), ("s", "New"))
        self.assertFalse(button.content.HasField("body"))
        self.assertFalse(tenfoot.item("t", "T", (0, 0, 1, 1), toggles=True).momentary)
        self.assertFalse(tenfoot.item("p", "P", (0, 0, 1, 1)).HasField("content"))

    def test_a_patch_carries_its_operations_and_where_focus_goes(self):
        command = tenfoot.patch(tenfoot.add_group("page", traps_focus=True),
                                tenfoot.remove_item("x"), focus_group="page")
        change = command.patch
        self.assertEqual([op.WhichOneof("op") for op in change.operations],
                         ["add_group", "remove_item"])
        self.assertTrue(change.operations[0].add_group.group.traps_focus)
        self.assertEqual(change.WhichOneof("focus"), "focus_group")
        with self.assertRaises(ValueError):
            tenfoot.patch(focus_item="a", focus_group="b")

    def test_a_layout_has_a_tv_canvas_by_default(self):
        made = tenfoot.layout([])
        self.assertEqual((made.canvas.width, made.canvas.height), (1920, 1080))
        self.assertEqual(tenfoot.replace_layout(made).WhichOneof("command"), "replace_layout")


if __name__ == "__main__":
    unittest.main()
