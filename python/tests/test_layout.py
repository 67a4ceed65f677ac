"""The layout builders: a virtual group as docs/apps.md builds it, its scrolling inferred from
its arrangement, and the mistakes the builder refuses."""

import unittest

import tenfoot
from tenfoot import pb


class VirtualGroup(unittest.TestCase):
    def test_the_docs_row_of_a_million_titles(self):
        # docs/apps.md, "Catalogs of any size" (python/examples/catalog_app.py).
        titles = tenfoot.virtual_group("titles", 1_000_000, (300, 170), spacing=(40, 0),
                                       origin=(60, 400), title_prefix="Title ",
                                       viewport=(0, 380, 1920, 210))
        expected = pb.Group(
            id="titles", scroll=pb.SCROLL_AXIS_HORIZONTAL,
            viewport=pb.Rect(x=0, y=380, width=1920, height=210),
            virtual=pb.VirtualItems(count=1_000_000, origin=pb.Point(x=60, y=400),
                                    item_size=pb.Size(width=300, height=170),
                                    spacing=pb.Size(width=40, height=0),
                                    arrangement=pb.VIRTUAL_ARRANGEMENT_ROW,
                                    title_prefix="Title "))
        self.assertEqual(titles, expected)
        self.assertEqual(list(titles.items), [])  # declared, not listed
        made = tenfoot.layout([], [titles], initial_focus="titles#0")
        self.assertLess(made.ByteSize(), 200)  # a million titles in a few dozen bytes
        self.assertEqual(pb.Layout.FromString(made.SerializeToString()), made)

    def test_it_scrolls_along_its_arrangement_when_it_has_a_viewport(self):
        view = (0, 0, 1920, 1080)
        cases = [
            (dict(), pb.SCROLL_AXIS_HORIZONTAL, pb.VIRTUAL_ARRANGEMENT_ROW),
            (dict(arrangement="column"), pb.SCROLL_AXIS_VERTICAL,
             pb.VIRTUAL_ARRANGEMENT_COLUMN),
            (dict(arrangement="grid", columns=1000), pb.SCROLL_AXIS_BOTH,
             pb.VIRTUAL_ARRANGEMENT_GRID),
            (dict(scroll="vertical"), pb.SCROLL_AXIS_VERTICAL, pb.VIRTUAL_ARRANGEMENT_ROW),
        ]
        for options, scroll, arrangement in cases:
            with self.subTest(options=options):
                made = tenfoot.virtual_group("g", 10, (100, 100), viewport=view, **options)
                self.assertEqual(made.scroll, scroll)
                self.assertEqual(made.virtual.arrangement, arrangement)
                self.assertEqual(made.virtual.columns, options.get("columns", 0))

    def test_without_a_viewport_it_does_not_scroll_and_zeros_stay_unset(self):
        made = tenfoot.virtual_group("g", 10, (100, 100))
        self.assertEqual(made.scroll, pb.SCROLL_AXIS_NONE)
        self.assertFalse(made.HasField("viewport"))
        self.assertFalse(made.virtual.HasField("origin"))
        self.assertFalse(made.virtual.HasField("spacing"))

    def test_mistakes_are_refused_with_their_reason(self):
        mistakes = [
            (dict(arrangement="diagonal"), "arrangement 'diagonal'"),
            (dict(arrangement="grid"), "a grid needs columns"),
            (dict(columns=4), "a grid needs columns"),
            (dict(scroll="sideways", viewport=(0, 0, 10, 10)), "scroll 'sideways'"),
            (dict(scroll="both"), "needs a viewport"),
            (dict(arrangement="grid", columns=2, sizes=[(10, 50)]), "not a grid"),
        ]
        for options, reason in mistakes:
            with self.subTest(options=options):
                with self.assertRaisesRegex(ValueError, reason):
                    tenfoot.virtual_group("g", 10, (100, 100), **options)

    def test_an_epg_row_sizes_its_programmes_by_runs(self):
        made = tenfoot.virtual_group("bbc1", 5, (0.5, 80), sizes=[(2, 300), (1, 600), (2, 150)])
        self.assertEqual(
            list(made.virtual.sizes),
            [pb.SizeRun(count=2, length=300), pb.SizeRun(count=1, length=600),
             pb.SizeRun(count=2, length=150)])


class VirtualContent(unittest.TestCase):
    def test_a_key_rides_with_the_content(self):
        made = tenfoot.virtual_content("News", key="prog-42")
        self.assertEqual(made.key, "prog-42")
        self.assertFalse(tenfoot.virtual_content("News").HasField("key"))


if __name__ == "__main__":
    unittest.main()
