"""A PNG of time-to-unpause per host, written with the standard library only (zlib + struct).

Exists so `dhcpless bench --plot` works everywhere the functions run: matplotlib is not a
dependency. The picture is a scatter plot: x is the host's registration order, y the seconds
from its registration to its unpause; a title, both axes labelled with their range, a grey
line at p50, a red one at p95, and a legend naming the dots and both lines (3x5 pixel font,
`bench_font`).
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from dhcpless.tools.bench.font import glyph, width

WIDTH, HEIGHT, MARGIN, TOP = 800, 440, 40, 50
Pixel = tuple[int, int, int]
WHITE, BLACK, BLUE = (255, 255, 255), (0, 0, 0), (31, 119, 180)
GREY, RED = (150, 150, 150), (214, 39, 40)
TITLE = "TIME FROM REGISTRATION TO UNPAUSE, PER HOST"
X_LABEL, Y_LABEL = "HOSTS, IN REGISTRATION ORDER", "SECONDS"
LEGEND_X = WIDTH - 190


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
        """`text` in the 3x5 font, top-left at (x, y)."""
        for i, char in enumerate(text):
            for n, bit in enumerate(glyph(char)):
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
    span_x, span_y = WIDTH - left - 10, bottom - TOP

    def y_of(value: float) -> int:
        return bottom - round(value / top * span_y)

    canvas.hline(left, WIDTH - 10, y_of(p50), GREY)
    canvas.hline(left, WIDTH - 10, y_of(p95), RED)
    for i, value in enumerate(seconds):
        canvas.dot(left + round(i / max(len(seconds) - 1, 1) * span_x), y_of(value), BLUE)
    _axes(canvas, left, bottom, top, len(seconds))
    _legend(canvas, p50, p95)
    path.write_bytes(canvas.png())
    return path


def _axes(canvas: Canvas, left: int, bottom: int, top: float, hosts: int) -> None:
    """Both axes with their range and label, and the title above the plot."""
    canvas.text((WIDTH - width(TITLE, 3)) // 2, 8, TITLE, scale=3)
    canvas.hline(left, WIDTH - 10, bottom, BLACK)
    canvas.vline(left, TOP, bottom, BLACK)
    canvas.text(2, TOP, f"{top:.1f}s")
    canvas.text(2, TOP - 14, Y_LABEL)
    canvas.text(2, bottom - 10, "0")
    canvas.text(WIDTH - 10 - width(str(hosts), 2), bottom + 8, str(hosts))
    canvas.text((WIDTH - width(X_LABEL, 2)) // 2, bottom + 22, X_LABEL)


def _legend(canvas: Canvas, p50: float, p95: float) -> None:
    """What the dots and the two lines are, boxed in the top-right corner."""
    entries = ((BLUE, "ONE HOST"), (GREY, f"P50 {p50:.2f}s"), (RED, f"P95 {p95:.2f}s"))
    x0, y0 = LEGEND_X, TOP + 4
    for y in range(y0, y0 + 8 + len(entries) * 16):
        canvas.hline(x0, WIDTH - 14, y, WHITE)  # dots under the legend would hide it
    for n, (color, text) in enumerate(entries):
        y = y0 + 8 + n * 16
        if color == BLUE:
            canvas.dot(x0 + 16, y + 4, color)
        else:
            canvas.hline(x0 + 8, x0 + 24, y + 4, color)
        canvas.text(x0 + 32, y, text)
    for x in (x0, WIDTH - 14):
        canvas.vline(x, y0, y0 + 8 + len(entries) * 16, BLACK)
    for y in (y0, y0 + 8 + len(entries) * 16):
        canvas.hline(x0, WIDTH - 14, y, BLACK)
