"""The Python examples against the real broker and a real headless screen: the menu app
attached to a screen opens a page on select and closes it on Menu, presses right after an
activation land after the app's reaction, a kill -9 of the broker mid-session leaves the page
open and the app working, and the app running as its own screen survives it too."""

import os
import sys
import time
import unittest

import tenfoot
from support import Stack, wait_for_frame

HOME = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                    "home.json")


def remote(stack, *keys):
    """Runs the remote example with `keys`; returns its output lines (it must succeed)."""
    child = stack.example("remote.py", keys)
    status = child.wait(30)
    if status != 0:
        raise AssertionError(f"remote.py {' '.join(keys)} exited {status}: {child.errors}")
    return child.output


class AttachedMenuApp(unittest.TestCase):
    def setUp(self):
        self.stack = Stack()
        self.addCleanup(self.stack.close)
        # The layout docs/apps.md starts the screen with; the app replaces it when it joins.
        self.screen = self.stack.screen(["--layout", HOME])
        self.grid, _ = wait_for_frame(self.screen, "the file's layout",
                                      lambda f: f["focused"] == "upnext-0")
        self.app = self.stack.example("menu_app.py", ["--attach"])
        self.menu, _ = wait_for_frame(self.screen, "the app's menu on the screen",
                                      lambda f: f["focused"] == "weather", self.grid)

    def test_select_opens_a_page_and_menu_closes_it(self):
        self.assertEqual(remote(self.stack, "down", "select"),
                         ["down: focused news", "select: focused page-news"])
        page, frame = wait_for_frame(self.screen, "the News page",
                                     lambda f: f["focused"] == "page-news", self.menu)
        self.assertEqual(frame["states"]["news"], "unfocused")
        self.assertEqual(remote(self.stack, "right", "menu"),
                         ["right: focused page-news", "menu: focused news"])
        _, closed = wait_for_frame(self.screen, "the menu again",
                                   lambda f: f["focused"] == "news" and "page-news" not in
                                   f["states"], page)
        self.assertEqual(closed["states"]["weather"], "unfocused")
        self.assertEqual(self.app.errors[:1], ["tenfoot.app: joined screen main"])

    def test_presses_right_after_an_activation_wait_for_the_reaction(self):
        # Sent back to back on one connection: without the broker's hold (the app's reaction
        # for the activation's state seq) Menu would land before the page opened and the
        # page would stay open; with it, Menu closes the page the app has just opened.
        with tenfoot.Remote(self.stack.endpoints, screen="main", name="e2e") as keys:
            results = [keys.press(key) for key in ("select", "menu", "down", "select", "down")]
        self.assertEqual([r.focused for r in results],
                         ["page-weather", "weather", "news", "page-news", "page-news"])
        wait_for_frame(self.screen, "the News page, focus trapped in it",
                       lambda f: f["focused"] == "page-news", self.menu)

    def test_the_remote_api_swipes_focuses_and_gets_typed_refusals(self):
        with tenfoot.Remote(self.stack.endpoints, screen="main", name="e2e") as keys:
            swiped = keys.swipe("down")
            self.assertEqual(swiped.focused, "news")
            self.assertIn("focus_changed", swiped.kinds())
            self.assertEqual(keys.focus("settings").focused, "settings")
            self.assertEqual(keys.back().focused, "settings")  # Nothing open: the app ignores it.
            with self.assertRaises(tenfoot.errors.NoTextField):
                keys.type("hi")
            with self.assertRaises(tenfoot.errors.UnknownTarget):
                keys.focus("nowhere")
            with self.assertRaises(tenfoot.errors.InvalidInput):
                keys.press("sideways")
            self.assertEqual(keys.snapshot().focused, "settings")
        with tenfoot.Remote(self.stack.endpoints, screen="nope", name="e2e") as lost:
            with self.assertRaises(tenfoot.UnknownScreen):
                lost.press("right")

    def test_kill_9_of_the_broker_mid_session_leaves_the_page_open_and_the_app_working(self):
        self.assertEqual(remote(self.stack, "select"), ["select: focused page-weather"])
        page, before = wait_for_frame(self.screen, "the Weather page",
                                      lambda f: f["focused"] == "page-weather", self.menu)
        joined = len(self.app.errors)
        ready = self.stack.restart_broker()
        _, restored = wait_for_frame(
            self.screen, "the page after the restart",
            lambda f: f["epoch"] != before["epoch"] and f["focused"] == "page-weather", page)
        self.app.wait_for_line("the app's resync", lambda l: "resynced screen main" in l,
                               joined, stderr=True)
        print(f"\nmeasured: the app resynced {(time.monotonic() - ready) * 1000:.0f} ms after "
              "the restarted broker was ready", file=sys.stderr)
        self.assertIn("page-weather", restored["states"])
        # The app still reacts, and the broker holds presses for it again.
        with tenfoot.Remote(self.stack.endpoints, screen="main", name="e2e") as keys:
            self.assertEqual([keys.press(k).focused for k in ("menu", "down", "select", "menu")],
                             ["weather", "news", "page-news", "news"])


class AttachedCatalogApp(unittest.TestCase):
    """The catalog example (docs/apps.md, "Catalogs of any size"): a row of 1,000,000 titles
    built with `tenfoot.virtual_group`, attached to a screen."""

    def test_its_titles_take_focus_open_a_page_and_the_screen_draws_only_the_window(self):
        stack = Stack()
        self.addCleanup(stack.close)
        screen = stack.screen(["--layout", HOME])
        grid, _ = wait_for_frame(screen, "the file's layout",
                                 lambda f: f["focused"] == "upnext-0")
        stack.example("catalog_app.py", ["--attach"])
        row, first = wait_for_frame(screen, "the app's row on the screen",
                                    lambda f: f["focused"] == "titles#0", grid)
        self.assertEqual(first["virtual"]["titles#0"], "Title 1")
        self.assertLess(len(first["virtual"]), 10)  # the titles in view, not a million
        self.assertEqual(remote(stack, "right", "right", "select"),
                         ["right: focused titles#1", "right: focused titles#2",
                          "select: focused page"])
        page, _ = wait_for_frame(screen, "the page of Title 3",
                                 lambda f: f["focused"] == "page", row)
        self.assertEqual(remote(stack, "menu"), ["menu: focused titles#2"])
        with tenfoot.Remote(stack.endpoints, screen="main", name="e2e") as keys:
            self.assertEqual(keys.focus("titles#999999").focused, "titles#999999")
        _, last = wait_for_frame(screen, "the last title in view",
                                 lambda f: f["focused"] == "titles#999999", page)
        self.assertEqual(last["virtual"]["titles#999999"], "Title 1000000")


class MoviesApp(unittest.TestCase):
    """Content on demand (docs/apps.md, "Content on demand"): the movies example supplies the
    titles of the items that come near the window in view of its 1,000,000-item row."""

    def test_the_screen_draws_the_supplied_titles_and_focus_skips_an_unavailable_movie(self):
        stack = Stack()
        self.addCleanup(stack.close)
        screen = stack.screen(["--layout", HOME])
        grid, _ = wait_for_frame(screen, "the file's layout",
                                 lambda f: f["focused"] == "upnext-0")
        stack.example("movies_app.py", ["--attach"])

        def supplied(frame):
            shown = frame.get("virtual", {})
            return bool(shown) and all(
                title == f"Movie {int(id.split('#')[1]) + 1}" for id, title in shown.items())
        row, first = wait_for_frame(screen, "the supplied titles",
                                    lambda f: f["focused"] == "movies#0" and supplied(f), grid)
        self.assertEqual(first["content"]["movies#0"]["subtitle"], "1950")
        self.assertEqual(remote(stack, *["right"] * 8)[-1], "right: focused movies#8")
        row, moved = wait_for_frame(
            screen, "movies#8 focused, the titles in view supplied",
            lambda f: f["focused"] == "movies#8" and supplied(f), row)
        self.assertEqual(moved["virtual"]["movies#8"], "Movie 9")
        with tenfoot.Remote(stack.endpoints, screen="main", name="e2e") as keys:
            self.assertEqual(keys.focus("movies#998").focused, "movies#998")
            row, far = wait_for_frame(
                screen, "movie 999 supplied as unavailable",
                lambda f: f["focused"] == "movies#998" and supplied(f)
                and f["states"].get("movies#999") == "unavailable", row)
            # Movie 1000 (movies#999) is not yet released: right skips it.
            self.assertEqual(keys.press("right").focused, "movies#1000")


class OwnScreenMenuApp(unittest.TestCase):
    """The app as the screen itself (it registers its layout), shown by a mirror."""

    def test_started_before_its_broker_it_waits_then_joins(self):
        stack = Stack()
        self.addCleanup(stack.close)
        stack.broker.kill()
        app = stack.example("menu_app.py")
        app.wait_for_line("the app waiting", lambda l: "waiting for the broker" in l,
                          stderr=True)
        stack.broker = stack.start_broker()
        app.wait_for_line("the app joined", lambda l: "joined screen main" in l, stderr=True)
        self.assertEqual(remote(stack, "select"), ["select: focused page-weather"])

    def test_it_survives_a_kill_9_of_the_broker_with_its_page_open(self):
        stack = Stack(["--sessions-in-memory"])  # The broker forgets: the app must re-put it.
        self.addCleanup(stack.close)
        app = stack.example("menu_app.py")
        app.wait_for_line("the app joined", lambda l: "joined screen main" in l, stderr=True)
        mirror = stack.screen(["--mirror"])
        wait_for_frame(mirror, "the app's menu", lambda f: f["focused"] == "weather")
        self.assertEqual(remote(stack, "down", "down", "select"),
                         ["down: focused news", "down: focused settings",
                          "select: focused page-settings"])
        stack.restart_broker()
        app.wait_for_line("the app's resync", lambda l: "resynced screen main" in l, stderr=True)
        self.assertEqual(remote(stack, "menu", "up"),
                         ["menu: focused settings", "up: focused news"])


if __name__ == "__main__":
    unittest.main()
