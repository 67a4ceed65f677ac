"""The examples stay as small as promised (issue 27): the menu app and the catalog app in at
most 40 lines, the remote in at most 10; and they use only the package's public names."""

import ast
import os
import unittest

import tenfoot

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples")


class ExampleSize(unittest.TestCase):
    def lines(self, name):
        with open(os.path.join(EXAMPLES, name), encoding="utf-8") as handle:
            return handle.read()

    def test_the_apps_are_at_most_40_lines_and_the_remote_10(self):
        for name, limit in (("menu_app.py", 40), ("catalog_app.py", 40), ("movies_app.py", 40),
                            ("remote.py", 10)):
            with self.subTest(name=name):
                self.assertLessEqual(len(self.lines(name).splitlines()), limit)

    def test_they_use_only_public_names(self):
        for name in ("menu_app.py", "catalog_app.py", "movies_app.py", "remote.py"):
            used = {node.attr for node in ast.walk(ast.parse(self.lines(name)))
                    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "tenfoot"}
            with self.subTest(name=name):
                self.assertTrue(used)
                self.assertLessEqual(used, set(tenfoot.__all__))


if __name__ == "__main__":
    unittest.main()
