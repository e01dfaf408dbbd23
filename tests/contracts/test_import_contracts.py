"""The layer contracts in pyproject.toml hold, and a forbidden import breaks them.

`lint-imports` (import-linter) runs in `scripts/dev.py lint`, so in `.ci/run`. Here it runs on a
temporary copy of the packages: once unchanged (every contract kept), then with one forbidden
import added to one module, which must fail naming the contract that import breaks.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.support.waits import seconds

REPO = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
RENDER = "the renderer is pure"
MODELS = "models and template resolution do not reach the cluster"
SERVING = "functions and what they serve with import no sandbox and no tools"
ADAPTER = "the adapter does not decide"
DECIDE = "chain decisions and action values are pure"
GATHER = "chain gather only reads"
ACT = "chain act performs"
INTERNAL = "the adapter keeps its transport and cache to itself"
SEAM = "formats and ramdisk profiles are chosen through their registries"
LAYERS = "chain layers: functions, pipeline, gather | act, decide, predicates"
CAUSE = "a cause is a value"
PRODUCT = "the product never imports the sandbox distribution"
SANDBOX_EDGE = "the sandbox's API server, eventing, stand-ins: models, keys, CRDs only"
RUNTIME_ONLY = "only the sandbox's runtime imports the functions"


def _copy(tmp_path: Path) -> Path:
    """The three root packages (the product's two, the sandbox distribution's one) and the
    config, in a folder that shadows the installed ones (their sources: the bytecode caches are
    over half the bytes and lint-imports reads none)."""
    sources = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPO / "shared" / "dhcpless", tmp_path / "dhcpless", ignore=sources)
    shutil.copytree(REPO / "functions", tmp_path / "functions", ignore=sources)
    sandbox = REPO / "sandbox" / "src" / "dhcpless_sandbox"
    shutil.copytree(sandbox, tmp_path / "dhcpless_sandbox", ignore=sources)
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--config", str(root / "pyproject.toml")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=seconds(120),
        check=False,
    )


def _broken(output: str) -> set[str]:
    """The names of the broken contracts (a contract with ignored imports says how many)."""
    lines = (re.sub(r" \(\d+ ignored imports?\)$", "", line) for line in output.splitlines())
    return {line.rsplit(" ", 1)[0] for line in lines if line.endswith(" BROKEN")}


def test_every_contract_holds_on_the_tree(tmp_path: Path) -> None:
    done = _lint(_copy(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout and _broken(done.stdout) == set()


@pytest.mark.parametrize(
    ("module", "forbidden", "contract"),
    [
        pytest.param("dhcpless/render/ipnet.py", "import kubernetes", RENDER, id="render-k8s"),
        pytest.param("dhcpless/render/macs.py", "import flask", RENDER, id="render-flask"),
        pytest.param("dhcpless/render/routes.py", "import dhcpless.kube", RENDER, id="render-kube"),
        pytest.param(
            "dhcpless/models/base.py", "import dhcpless.kube.api.client", MODELS, id="model"
        ),
        pytest.param(
            "functions/resync/app.py",
            "import dhcpless_sandbox.runtime.world",
            SERVING,
            id="fn-sandbox",
        ),
        pytest.param(
            "dhcpless/chain/gate.py", "import dhcpless_sandbox.demo.run", SERVING, id="chain-demo"
        ),
        pytest.param(
            "dhcpless/kube/api/generic.py",
            "import dhcpless.templates.resolve",
            ADAPTER,
            id="kube-resolve",
            marks=pytest.mark.slow,  # a lint-imports run takes seconds
        ),
        pytest.param(
            "dhcpless/kube/events/recorder.py",
            "import dhcpless.chain.gate",
            ADAPTER,
            id="protocol-chain",
            marks=pytest.mark.slow,
        ),
        pytest.param(
            "dhcpless/chain/decide/write.py",
            "import dhcpless.serving.web",
            DECIDE,
            id="decide-flask",
        ),
        pytest.param("dhcpless/chain/actions.py", "import kubernetes", DECIDE, id="actions-k8s"),
        pytest.param(
            "dhcpless/chain/decide/claims.py", "import dhcpless.kube", DECIDE, id="decide-kube"
        ),
        pytest.param(
            "dhcpless/chain/gather/lookup.py", "import dhcpless.chain.act", GATHER, id="gather-act"
        ),
        pytest.param(
            "dhcpless/chain/act/summary.py", "import dhcpless.chain.gather", ACT, id="act-gathers"
        ),
        pytest.param(
            "dhcpless/serving/web.py",
            "import dhcpless.kube.transport.core",
            INTERNAL,
            id="serving-transport",
        ),
        pytest.param(
            "dhcpless/chain/gather/lookup.py",
            "from dhcpless.kube.cache import watchcache",
            INTERNAL,
            id="gather-cache",
        ),
        pytest.param(
            "functions/resync/app.py",
            "import dhcpless.kube.cache.informer",
            INTERNAL,
            id="fn-cache",
            marks=pytest.mark.slow,
        ),
        pytest.param(
            "dhcpless/tools/status/read.py",
            "import dhcpless.kube.transport.errors",
            INTERNAL,
            id="tool-transport",
        ),
        pytest.param(
            "dhcpless/chain/decide/write.py",
            "import dhcpless.render.formats.nmstate",
            SEAM,
            id="chain-picks-a-format",
        ),
        pytest.param(
            "dhcpless/tools/render_cmd.py",
            "import dhcpless.render.profiles.glean",
            SEAM,
            id="tool-picks-a-profile",
            marks=pytest.mark.slow,
        ),
        pytest.param(
            "dhcpless/chain/gather/lookup.py",
            "import dhcpless.chain.decide.claims",
            GATHER,
            id="gather-decides",
        ),
        pytest.param(
            "dhcpless/chain/predicates/answers.py", "import dhcpless.kube", DECIDE, id="pred-kube"
        ),
        pytest.param(
            "dhcpless/chain/predicates/on_host.py",
            "import dhcpless.chain.decide.hang",
            LAYERS,
            id="predicate-decides",
        ),
        pytest.param(
            "dhcpless/chain/facts.py", "import dhcpless.chain.decide", LAYERS, id="facts-decide"
        ),
        pytest.param(
            "dhcpless/chain/decide/claims.py",
            "import dhcpless.chain.pipeline",
            LAYERS,
            id="decide-pipeline",
        ),
        pytest.param(
            "dhcpless/chain/pipeline.py", "import functions.resync.app", LAYERS, id="pipeline-fn"
        ),
        pytest.param(
            "dhcpless/chain/cause.py", "import dhcpless.kube.api.client", CAUSE, id="cause-reads"
        ),
        pytest.param(
            "dhcpless/tools/status/read.py",
            "import dhcpless_sandbox.demo.run",
            PRODUCT,
            id="tool-sandbox",
        ),
        pytest.param(
            "dhcpless/registry.py",
            "import dhcpless_sandbox.commands",
            PRODUCT,
            id="core-sandbox",
            marks=pytest.mark.slow,
        ),
        pytest.param(
            "dhcpless_sandbox/eventing/dispatch.py",
            "import dhcpless.kube.transport.onewrite",
            SANDBOX_EDGE,
            id="eventing-adapter",
        ),
        pytest.param(
            "dhcpless_sandbox/apiserver/store.py",
            "import dhcpless.errors",
            SANDBOX_EDGE,
            id="apiserver-core",
            marks=pytest.mark.slow,
        ),
        pytest.param(
            "dhcpless_sandbox/standins/ipam.py",
            "import dhcpless.render",
            SANDBOX_EDGE,
            id="standin-renderer",
        ),
        pytest.param(
            "dhcpless_sandbox/standins/reusing_product/ironic.py",
            "import dhcpless.chain.gate",
            SANDBOX_EDGE,
            id="reusing-chain",
            marks=pytest.mark.slow,
        ),
        pytest.param(
            "dhcpless_sandbox/demo/report.py",
            "import functions.resync.app",
            RUNTIME_ONLY,
            id="demo-function",
        ),
        pytest.param(
            "dhcpless_sandbox/standins/bmo.py",
            "import functions.apps",
            RUNTIME_ONLY,
            id="standin-function",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_a_forbidden_import_fails_the_check(
    tmp_path: Path, module: str, forbidden: str, contract: str
) -> None:
    root = _copy(tmp_path)
    target = root / module
    target.write_text(target.read_text() + f"\n{forbidden}  # deliberately forbidden\n")
    done = _lint(root)
    assert done.returncode != 0, done.stdout
    assert {name for name in _broken(done.stdout) if name.startswith(contract)} != set()
    assert forbidden.split()[-1] in done.stdout


def test_the_adapters_internals_are_closed_to_every_other_layer() -> None:
    """Every sub-package and core module but the adapter is a source of the contract that keeps
    `kube.transport` and `kube.cache` internal: a new layer cannot slip past it unlisted."""
    contracts = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]
    (internal,) = [c for c in contracts["contracts"] if c["name"] == INTERNAL]
    package = REPO / "shared" / "dhcpless"
    layers = {p.stem for p in package.glob("*.py")} | {
        p.name for p in package.iterdir() if (p / "__init__.py").is_file()
    }
    expected = {f"dhcpless.{name}" for name in layers - {"__init__", "kube"}} | {"functions"}
    assert expected - set(internal["source_modules"]) == set()
    assert set(internal["forbidden_modules"]) == {"dhcpless.kube.transport", "dhcpless.kube.cache"}
