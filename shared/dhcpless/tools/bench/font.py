"""A 3x5 pixel font for the bench plot's title, axis labels and legend.

`bench_plot` writes its PNG with the standard library only, so it carries its own glyphs: each
is five rows of three bits, top to bottom. Letters are upper case; `glyph()` folds lower case
onto them except for `s` (the seconds suffix), which keeps its own small shape.
"""

from __future__ import annotations

_ROWS = {
    "0": "111 101 101 101 111", "1": "010 110 010 010 111", "2": "111 001 111 100 111",
    "3": "111 001 111 001 111", "4": "101 101 111 001 001", "5": "111 100 111 001 111",
    "6": "111 100 111 101 111", "7": "111 001 001 001 001", "8": "111 101 111 101 111",
    "9": "111 101 111 001 111", ".": "000 000 000 000 010", "s": "000 011 110 011 110",
    "A": "010 101 111 101 101", "B": "110 101 110 101 110", "C": "011 100 100 100 011",
    "D": "110 101 101 101 110", "E": "111 100 110 100 111", "F": "111 100 110 100 100",
    "G": "011 100 101 101 011", "H": "101 101 111 101 101", "I": "111 010 010 010 111",
    "J": "001 001 001 101 010", "K": "101 101 110 101 101", "L": "100 100 100 100 111",
    "M": "101 111 111 101 101", "N": "110 101 101 101 101", "O": "010 101 101 101 010",
    "P": "110 101 110 100 100", "Q": "010 101 101 110 011", "R": "110 101 110 101 101",
    "S": "011 100 010 001 110", "T": "111 010 010 010 010", "U": "101 101 101 101 111",
    "V": "101 101 101 101 010", "W": "101 101 111 111 101", "X": "101 101 010 101 101",
    "Y": "101 101 010 010 010", "Z": "111 001 010 100 111", " ": "000 000 000 000 000",
    "(": "010 100 100 100 010", ")": "010 001 001 001 010", "-": "000 000 111 000 000",
    ":": "000 010 000 010 000", ",": "000 000 000 010 100", "%": "101 001 010 100 101",
    "/": "001 001 010 100 100",
}  # fmt: skip

GLYPHS = {char: rows.replace(" ", "") for char, rows in _ROWS.items()}
UNKNOWN = "101010101010101"
"""A checker, drawn for a character the font lacks (never silently nothing; no glyph's shape)."""


def glyph(char: str) -> str:
    """The 15 bits (row by row) that draw `char`."""
    return GLYPHS.get(char) or GLYPHS.get(char.upper()) or UNKNOWN


def width(text: str, scale: int) -> int:
    """Pixels `text` takes at `scale`: 3 columns and 1 of spacing per character."""
    return len(text) * 4 * scale
