"""The bench PNG has a title, labelled axes and a legend (read back from the PNG bytes)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

from dhcpless.tools.bench import plot as bench_plot
from dhcpless.tools.bench.font import UNKNOWN, glyph

Pixel = tuple[int, int, int]


def _pixels(png: bytes) -> list[list[Pixel]]:
    """Rows of RGB pixels from the 8-bit RGB, filter-0 PNG `bench_plot` writes."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])
    at, data = 8, b""
    while at < len(png):
        (size,), kind = struct.unpack(">I", png[at : at + 4]), png[at + 4 : at + 8]
        data += png[at + 8 : at + 8 + size] if kind == b"IDAT" else b""
        at += 12 + size
    raw, stride = zlib.decompress(data), 1 + 3 * width
    rows = [raw[y * stride + 1 : (y + 1) * stride] for y in range(height)]
    return [[(r[3 * x], r[3 * x + 1], r[3 * x + 2]) for x in range(width)] for r in rows]


def _colors(image: list[list[Pixel]], ys: range, xs: range) -> set[Pixel]:
    return {image[y][x] for y in ys for x in xs}


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> list[list[Pixel]]:
    seconds = [0.5 + (i * 37 % 100) / 40 for i in range(100)]
    path = bench_plot.plot(seconds, 1.2, 2.6, tmp_path_factory.mktemp("plot") / "p.png")
    return _pixels(Path(path).read_bytes())


@pytest.mark.parametrize(
    ("ys", "xs", "colors"),
    [
        pytest.param(range(8, 24), range(bench_plot.WIDTH), {bench_plot.BLACK}, id="title"),
        pytest.param(
            range(bench_plot.HEIGHT - bench_plot.MARGIN + 22, bench_plot.HEIGHT),
            range(bench_plot.WIDTH),
            {bench_plot.BLACK},
            id="x-axis-label",
        ),
        pytest.param(
            range(bench_plot.TOP - 14, bench_plot.TOP - 4),
            range(60),
            {bench_plot.BLACK},
            id="y-axis-label",
        ),
        pytest.param(
            range(bench_plot.TOP + 4, bench_plot.TOP + 60),
            range(bench_plot.LEGEND_X, bench_plot.WIDTH - 13),
            {bench_plot.BLUE, bench_plot.GREY, bench_plot.RED, bench_plot.BLACK},
            id="legend",
        ),
    ],
)
def test_the_plot_is_labelled(
    image: list[list[Pixel]], ys: range, xs: range, colors: set[Pixel]
) -> None:
    assert colors <= _colors(image, ys, xs)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(bench_plot.TITLE, id="title"),
        pytest.param(bench_plot.X_LABEL, id="x-label"),
        pytest.param(bench_plot.Y_LABEL, id="y-label"),
        pytest.param("ONE HOST P50 0.12s P95 3.45s 6789", id="legend"),
    ],
)
def test_every_character_drawn_is_in_the_font(text: str) -> None:
    assert [c for c in text if glyph(c) == UNKNOWN] == []


def test_the_unknown_mark_is_no_character() -> None:
    assert UNKNOWN not in set(map(glyph, "0123456789.sABCDEFGHIJKLMNOPQRSTUVWXYZ (),-:%/"))
