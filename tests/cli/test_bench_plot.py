"""The bench's figures (`bench.figures`, matplotlib): each one is a PNG that decodes, of the
size the README shows, not blank; `--figures DIR` draws every figure its saved reports allow;
without matplotlib `--plot` and `--figures` end in one line naming the extra (exit 2).
No assertion on pixels: what is drawn is matplotlib's business."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from matplotlib import image

from dhcpless.tools import cli
from dhcpless_sandbox.bench import figures, records

FUNCTIONS = ("host-registration", "ipclaim-fulfilment", "resync", "secret-readiness")


def report(hosts: int, mode: str = "sync") -> dict[str, Any]:
    """The keys the figures read, shaped as `dhcpless bench --json` prints them."""
    seconds = [0.5 + (i * 37 % 100) / 40 for i in range(hosts)]
    return {
        "broker_mode": mode, "hosts": hosts, "seconds": hosts / 16, "to_unpause_seconds": seconds,
        "p50_seconds": 1.7, "p95_seconds": 2.9, "function_to_floor_ratio": 1.3,
        "rss_mb": {name: 60.0 + i for i, name in enumerate(FUNCTIONS)},
    }  # fmt: skip


CHAOS = {
    "broker_mode": "sync", "healthy_hosts": 90, "broken_hosts": 10, "baseline_unpaused": 90,
    "chaos_healthy_unpaused": 90, "broken_unpaused": 0, "baseline_p95_seconds": 4.1,
    "chaos_healthy_p95_seconds": 4.4, "healthy_p95_ratio": 1.07,
}  # fmt: skip


def decoded(path: Path) -> Any:
    """The PNG as pixels: it decodes, at the figures' size, and is not one flat colour."""
    pixels = image.imread(str(path), format="png")
    width, height = (int(side * figures.DPI) for side in figures.SIZE)
    assert pixels.shape[:2] == (height, width)
    assert pixels.min() < pixels.max()
    return pixels


@pytest.mark.parametrize(
    "draw",
    [
        pytest.param(lambda p: figures.unpause([report(100)], p), id="unpause-one-run"),
        pytest.param(
            lambda p: figures.unpause([report(100), report(100, "async")], p), id="both-brokers"
        ),
        pytest.param(lambda p: figures.scale([report(n) for n in (500, 1000, 2000)], p),
                     id="scale"),
        pytest.param(lambda p: figures.chaos(CHAOS, p), id="chaos"),
    ],
)  # fmt: skip
def test_each_figure_is_a_png_that_decodes(draw: Any, tmp_path: Path) -> None:
    decoded(draw(tmp_path / "f.png"))


def test_figures_are_drawn_from_saved_reports(tmp_path: Path) -> None:
    folder = tmp_path / "bench"
    for saved in (report(100), report(100, "async"), report(200)):
        records.record(saved, folder, saved["hosts"])
    records.record(CHAOS, folder, 100)
    assert sorted(p.name for p in folder.iterdir()) == [
        "async-100.json", "chaos-sync-100.json", "sync-100.json", "sync-200.json",
    ]  # fmt: skip
    assert json.loads((folder / "sync-200.json").read_text())["hosts"] == 200
    written = records.draw(folder)
    assert [p.name for p in written] == ["bench-unpause.png", "bench-scale.png", "bench-chaos.png"]
    for path in written:
        decoded(path)


def test_the_brokers_are_compared_at_the_size_both_ran() -> None:
    runs = [report(100), report(100, "async"), report(200)]
    assert [(r["hosts"], r["broker_mode"]) for r in records.side_by_side(runs)] == [
        (100, "sync"), (100, "async"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "option",
    [
        pytest.param(["--plot", "out.png"], id="plot"),
        pytest.param(["--figures", "."], id="figures"),
    ],
)
def test_without_matplotlib_one_line_names_the_extra(
    option: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib: ImportError
    monkeypatch.chdir(tmp_path)
    assert cli.main(["bench", "--hosts", "1", *option]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    assert option[0] in lines[0] and f"metal3-dhcpless[{figures.EXTRA}]" in lines[0]
    assert not (tmp_path / "out.png").exists()


def test_figures_of_a_folder_without_reports_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert cli.main(["bench", "--figures", str(tmp_path)]) == 2
    assert "no saved reports" in capsys.readouterr().err


REPO = Path(__file__).resolve().parents[2]
RECORDED = REPO / "docs" / "bench"


@pytest.mark.parametrize(
    "figure", [pytest.param("unpause"), pytest.param("scale"), pytest.param("chaos")]
)
def test_the_readme_shows_the_figures_of_the_recorded_reports(figure: str) -> None:
    """The committed figures are the ones `--figures docs/bench` draws from the reports there
    (`records.draw` names them), and README "Performance" shows them."""
    assert sorted(RECORDED.glob("sync-*.json")), "no recorded reports in docs/bench"
    name = f"{RECORDED.name}-{figure}.png"
    assert f"](docs/{name})" in (REPO / "README.md").read_text()
    decoded(REPO / "docs" / name)
