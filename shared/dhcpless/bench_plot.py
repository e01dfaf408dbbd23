"""A PNG of time-to-unpause per host, written with the standard library only (zlib + struct).

Exists so `dhcpless bench --plot` works everywhere the functions run: matplotlib is not a
dependency. The picture is a scatter plot: x is the host's registration order, y the seconds
from its registration to its unpause; axes with the maximum of each written in a 3x5 digit
font, a grey line at p50 and a red one at p95.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

WIDTH, HEIGHT, MARGIN = 800, 400, 40
Pixel = tuple[int, int, int]
WHITE, BLACK, BLUE = (255, 255, 255), (0, 0, 0), (31, 119, 180)
GREY, RED = (150, 150, 150), (214, 39, 40)

_DIGITS = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111",
    "3": "111001111001111", "4": "101101111001001", "5": "111100111001111",
    "6": "111100111101111", "7": "111001001001001", "8": "111101111101111",
    "9": "111101111001111", ".": "000000000000010", "s": "000011110011110",
}  # fmt: skip


class Canvas:
    """An RGB raster with the few drawing operations a scatter plot needs."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.rows = [bytearray(bytes(WHITE) * width) for _ in range(height)]

    def dot(self, x: int, y: int, color: Pixel, radius: int = 1) -> None:
        for dy in range(-radius, radius + 1):
            for dx in range(-radius, radius + 1):
                self.pixel(x + dx, y + dy, color)

    def pixel(self, x: int, y: int, color: Pixel) -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            self.rows[y][3 * x : 3 * x + 3] = bytes(color)

    def hline(self, x0: int, x1: int, y: int, color: Pixel) -> None:
        for x in range(x0, x1 + 1):
            self.pixel(x, y, color)

    def vline(self, x: int, y0: int, y1: int, color: Pixel) -> None:
        for y in range(y0, y1 + 1):
            self.pixel(x, y, color)

    def text(self, x: int, y: int, text: str, scale: int = 2) -> None:
        """Digits, '.' and 's' only, top-left at (x, y)."""
        for i, char in enumerate(text):
            bits = _DIGITS.get(char, "0" * 15)
            for n, bit in enumerate(bits):
                if bit == "1":
                    for s in range(scale * scale):
                        px = x + i * 4 * scale + (n % 3) * scale + s % scale
                        self.pixel(px, y + (n // 3) * scale + s // scale, BLACK)

    def png(self) -> bytes:
        raw = b"".join(b"\x00" + bytes(row) for row in self.rows)
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return (
            b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(raw, 9))
            + _chunk(b"IEND", b"")
        )


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def plot(seconds: list[float], p50: float, p95: float, path: Path) -> Path:
    """Write the scatter of `seconds` (in registration order) to `path` as a PNG."""
    canvas = Canvas(WIDTH, HEIGHT)
    top = max([*seconds, 1e-3]) * 1.05
    left, bottom = MARGIN + 20, HEIGHT - MARGIN
    span_x, span_y = WIDTH - left - 10, bottom - 10

    def y_of(value: float) -> int:
        return bottom - round(value / top * span_y)

    canvas.hline(left, WIDTH - 10, y_of(p50), GREY)
    canvas.hline(left, WIDTH - 10, y_of(p95), RED)
    for i, value in enumerate(seconds):
        canvas.dot(left + round(i / max(len(seconds) - 1, 1) * span_x), y_of(value), BLUE)
    canvas.hline(left, WIDTH - 10, bottom, BLACK)
    canvas.vline(left, 10, bottom, BLACK)
    canvas.text(2, 10, f"{top:.1f}s")
    canvas.text(2, bottom - 10, "0")
    canvas.text(WIDTH - 60, bottom + 8, str(len(seconds)))
    path.write_bytes(canvas.png())
    return path
