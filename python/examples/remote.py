"""Presses the keys given on the command line on screen "main" and prints where focus went."""
import sys

import tenfoot

with tenfoot.Remote(screen="main") as remote:
    for key in sys.argv[1:]:
        print(f"{key}: focused {remote.press(key).focused}")
