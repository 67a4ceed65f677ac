#!/usr/bin/env python3
"""Writes the example posters in examples/assets/posters/ (PNG, a few KiB each).

Standard library only: each image is a vertical two-colour gradient with a disc and a band,
encoded by hand (zlib + struct, filter "Sub" on every row so flat runs compress well).
Run from the repository's root: python3 scripts/example-images.py
"""
import os
import struct
import zlib

WIDTH, HEIGHT = 200, 300
POSTERS = {
    # name: (top colour, bottom colour, disc colour)
    "orbit": ((24, 40, 96), (6, 10, 28), (255, 196, 80)),
    "canyon": ((200, 90, 40), (60, 20, 10), (255, 230, 180)),
    "tides": ((20, 120, 130), (4, 30, 40), (200, 250, 255)),
    "signal": ((90, 30, 120), (20, 6, 36), (120, 255, 160)),
}


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pixel(x, y, top, bottom, disc):
    t = y / (HEIGHT - 1)
    colour = tuple(round(a + (b - a) * t) for a, b in zip(top, bottom))
    dx, dy = x - WIDTH * 0.62, y - HEIGHT * 0.34
    if dx * dx + dy * dy < (WIDTH * 0.22) ** 2:
        return disc
    if HEIGHT * 0.58 < y < HEIGHT * 0.62:
        return tuple(min(255, c + 40) for c in colour)
    return colour


def png(top, bottom, disc):
    raw = bytearray()
    for y in range(HEIGHT):
        row = [pixel(x, y, top, bottom, disc) for x in range(WIDTH)]
        raw.append(1)  # Filter type 1 (Sub): each byte minus the one a pixel to its left.
        previous = (0, 0, 0)
        for colour in row:
            raw.extend((c - p) & 0xFF for c, p in zip(colour, previous))
            previous = colour
    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 2, 0, 0, 0)  # 8-bit RGB.
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    directory = os.path.join("examples", "assets", "posters")
    os.makedirs(directory, exist_ok=True)
    for name, colours in POSTERS.items():
        with open(os.path.join(directory, name + ".png"), "wb") as out:
            out.write(png(*colours))
