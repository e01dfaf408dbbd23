"""`dhcpless.keys` is a package of small modules by subject, read as `keys.X`.

Covers: every key a subject module defines is in its `__all__` (so `keys.X` re-exports it) and
is the same object there; no key is defined in two subjects; the subject modules stay
reachable as `keys.<subject>` (a star import must not shadow one); annotation, label and
finalizer values are distinct within their subject.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path
from types import ModuleType

import pytest

from dhcpless import keys

SUBJECTS = sorted(info.name for info in pkgutil.iter_modules(keys.__path__))


def subject(name: str) -> ModuleType:
    return importlib.import_module(f"dhcpless.keys.{name}")


def defined(module: ModuleType) -> list[str]:
    """Names the module's own source defines (assignments and classes), not imports."""
    tree = ast.parse(Path(str(module.__file__)).read_text())
    targets = [n.target for n in tree.body if isinstance(n, ast.AnnAssign)]
    names = [t.id for t in targets if isinstance(t, ast.Name)]
    names += [n.name for n in tree.body if isinstance(n, ast.ClassDef)]
    return [n for n in names if not n.startswith("_")]


def test_there_are_several_subjects() -> None:
    assert {"annotations", "labels", "finalizers", "functions"} <= set(SUBJECTS)


@pytest.mark.parametrize("name", SUBJECTS)
def test_every_key_of_a_subject_is_re_exported(name: str) -> None:
    module = subject(name)
    names = defined(module)
    assert names, f"keys.{name} defines nothing"
    assert sorted(module.__all__) == sorted(names)
    for key in names:
        assert getattr(keys, key) is getattr(module, key), key


def test_no_key_is_defined_in_two_subjects() -> None:
    seen: dict[str, str] = {}
    for name in SUBJECTS:
        for key in defined(subject(name)):
            assert key not in seen, f"{key} in keys.{name} and keys.{seen[key]}"
            seen[key] = name


@pytest.mark.parametrize("name", SUBJECTS)
def test_a_subject_module_stays_reachable(name: str) -> None:
    assert getattr(keys, name) is subject(name)


@pytest.mark.parametrize("name", ["annotations", "labels", "finalizers"])
def test_values_are_distinct_within_a_subject(name: str) -> None:
    module = subject(name)
    values = [getattr(module, k) for k in defined(module) if k.endswith(name.upper()[:-1])]
    assert values and len(values) == len(set(values))
