"""Every `func deploy` command of docs/deploy.md, checked as far as it can be without a cluster.

No func binary here, so its flag handling is modelled from knative/func: `cmd/deploy.go`
(`deployConfig.Validate`: an image with a digest refuses `--build` true and `--push` true, and
`--push` defaults to true; `runDeploy`: a digest skips build and push, and `client.Deploy` skips
its "built" check only when `--build=false`) and `pkg/functions/client.go` (`Deploy`:
`ErrNotBuilt` for a function never built here, as on a fresh checkout). Each command's `--path`
must hold the func.yaml of a function the image serves (test_func_yaml.py validates it against
func's schema and against the Service).
"""

from __future__ import annotations

import re
import shlex

import pytest
import yaml

from .support import ROOT, SERVED_PACKAGES

GUIDE = ROOT / "docs" / "deploy.md"
DIGEST = "<registry>/metal3-dhcpless@sha256:<digest>"


def _truthy(text: str) -> bool:
    """Go's strconv.ParseBool, with a parse error as false (`truthy` in cmd/deploy.go)."""
    return text.lower() in ("1", "t", "true")


def func_deploy(argv: list[str], built: bool = False) -> str | None:
    """What `func deploy` says for `argv` on a checkout (`built`: func built it here); None: ok."""
    assert argv[:2] == ["func", "deploy"], argv
    flags = dict(arg.removeprefix("--").split("=", 1) for arg in argv[2:] if "=" in arg)
    pairs = [a for a in argv[2:] if "=" not in a]
    flags |= {pairs[i].removeprefix("--"): pairs[i + 1] for i in range(0, len(pairs), 2)}
    digest = "@sha256:" in flags.get("image", "")
    build, push = flags.get("build", "auto"), _truthy(flags.get("push", "true"))
    if digest and _truthy(build):
        return "building can not be enabled when using an image with digest"
    if digest and push:
        return "pushing is not valid when specifying an image with digest"
    if not digest:
        return "func would build the image itself (it has no Containerfile builder)"
    if build != "false" and not built:
        return "function not built"
    return None


def guide_commands() -> list[list[str]]:
    blocks = re.findall(r"```sh\n(.*?)```", GUIDE.read_text(), flags=re.DOTALL)
    lines = [line for block in blocks for line in block.splitlines()]
    return [shlex.split(line) for line in lines if line.startswith("func ")]


def test_the_guide_deploys_every_served_function() -> None:
    paths = [argv[argv.index("--path") + 1] for argv in guide_commands()]
    assert sorted(paths) == sorted(f"functions/{p}" for p in SERVED_PACKAGES.values())
    for path in paths:
        name = yaml.safe_load((ROOT / path / "func.yaml").read_text())["name"]
        assert SERVED_PACKAGES[name] == path.rsplit("/", 1)[1]


@pytest.mark.parametrize(
    "argv", [pytest.param(argv, id=argv[argv.index("--path") + 1]) for argv in guide_commands()]
)
def test_each_guide_command_deploys_on_a_fresh_checkout(argv: list[str]) -> None:
    assert func_deploy(argv, built=False) is None


BASE = ["func", "deploy", "--path", "functions/resync", "--image", DIGEST]


@pytest.mark.parametrize(
    ("extra", "built", "error"),
    [
        pytest.param([], False, "pushing is not valid", id="push-defaults-to-true"),
        pytest.param(["--push=false"], False, "not built", id="push-off-only-fresh-checkout"),
        pytest.param(["--push=false"], True, None, id="push-off-only-after-func-build"),
        pytest.param(["--build=true", "--push=false"], False, "building can not", id="build-on"),
        pytest.param(["--build=false", "--push=false"], False, None, id="both-off"),
    ],
)
def test_the_model_knows_why_the_old_command_failed(
    extra: list[str], built: bool, error: str | None
) -> None:
    said = func_deploy([*BASE, *extra], built=built)
    assert (said is None) == (error is None)
    assert error is None or (said is not None and error in said)


def test_func_yaml_comments_show_the_same_flags() -> None:
    for package in SERVED_PACKAGES.values():
        text = (ROOT / "functions" / package / "func.yaml").read_text()
        assert "--build=false --push=false" in text, package


def test_every_command_names_the_namespace_of_the_hosts() -> None:
    """func deploys into the kubeconfig's current namespace without `--namespace` (knative/func
    `cmd/root.go`); the guide installs everything into `metal3`."""
    for argv in guide_commands():
        assert argv[argv.index("--namespace") + 1] == "metal3", argv


def _service_spec(path: str) -> dict[str, object]:
    docs = yaml.safe_load_all((ROOT / path).read_text())
    (service,) = [d for d in docs if d and d["kind"] == "Service" and "template" in d["spec"]]
    spec: dict[str, object] = service["spec"]["template"]["spec"]
    return spec


@pytest.mark.parametrize(
    ("path", "said", "ours"),
    [
        pytest.param("deploy/base/resync.yaml", "300 s", ("timeoutSeconds", 60), id="timeout"),
        pytest.param(
            "deploy/base/resync.yaml", "`user-container`", ("name", "function"), id="container"
        ),
        pytest.param(
            "deploy/base/resync.yaml",
            "`readOnlyRootFilesystem`",
            ("readOnlyRootFilesystem", True),
            id="read-only-root",
        ),
        pytest.param(
            "eventing/dead-letter.yaml",
            "`automountServiceAccountToken: false`",
            ("automountServiceAccountToken", False),
            id="dead-letter-token",
        ),
    ],
)
def test_the_guide_lists_each_way_a_func_service_differs(
    path: str, said: str, ours: tuple[str, object]
) -> None:
    """What the guide says func's Service lacks is what our manifest sets."""
    assert said in GUIDE.read_text()
    spec = _service_spec(path)
    containers = spec.get("containers")
    assert isinstance(containers, list)
    container = containers[0]
    key, value = ours
    found = {**spec, **container, **container.get("securityContext", {})}.get(key)
    assert found == value, (path, key, found)
