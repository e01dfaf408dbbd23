"""CEL for the sandbox's admission policies: compile once, evaluate with Kubernetes' variables.

Why cel-expr-python. The three maintained Python CEL libraries were run on the expressions
Kubernetes policies use (`has()`, `in` on maps, the optional syntax `a.?b.orValue(x)` and
`m[?k]`, string extensions such as `lowerAscii()`, `exists`/`all`, `matches`, ternaries,
Kubernetes' `Object{...}`/`JSONPatch{...}` constructions, and a syntax error):

* cel-expr-python (CEL's own C++ runtime, from the CEL project): everything except the two
  Kubernetes-only types, once the optional and strings extensions that Kubernetes enables are
  loaded; it type-checks at compile time like cel-go, and its errors have cel-go's shape
  (`ERROR: <input>:1:24: Syntax error: ...`), so a malformed policy is refused in the words
  the real server uses.
* common-expression-language (Rust bindings): no optional syntax, no string extensions.
* cel-python (pure Python): no optional syntax, no string extensions.

The Kubernetes-only constructions are rewritten to map literals first (`cel_types`). Variables
are declared dynamic (`object`, `oldObject`, `request`, `namespaceObject`, `variables`), as
kubernetes/apiserver `pkg/admission/plugin/cel/compile.go` (`createEnvForOpts`) declares
`object` and `oldObject`. Not declared here (documented gaps): `params`, `authorizer`. The
library is a sandbox extra: the functions never import this module.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from cel_expr_python import cel
from cel_expr_python.ext import ext_optional, ext_strings

from dhcpless_sandbox.apiserver.cel_types import untyped

VARIABLES = ("object", "oldObject", "request", "namespaceObject", "variables")
_LOCK = threading.Lock()


class Returns(StrEnum):
    """What an expression must evaluate to (compile.go `ReturnTypes`); DYN passes any."""

    BOOL = "bool"
    STRING = "string"
    ANY = "any"


class CelError(Exception):
    """A compile or evaluation failure; `detail` is the text upstream puts in its errors."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


def _escape_key(key: str) -> str:
    """Kubernetes' `jsonpatch.escapeKey`: RFC 6901 escaping of one path segment."""
    return key.replace("~", "~0").replace("/", "~1")


@functools.cache
def _env() -> Any:
    escape = cel.Overload(
        "jsonpatch_escapeKey_string", cel.Type.STRING, [cel.Type.STRING], impl=_escape_key
    )
    return cel.NewEnv(
        variables=dict.fromkeys(VARIABLES, cel.Type.DYN),
        extensions=[ext_strings.ExtStrings(), ext_optional.ExtOptional()],
        functions=[cel.FunctionDecl("jsonpatch.escapeKey", [escape])],
    )


@dataclass(frozen=True)
class Program:
    """One compiled expression; `evaluate` raises `CelError` with upstream's wording."""

    expression: str
    compiled: Any

    def evaluate(self, bindings: Mapping[str, Any]) -> Any:
        data = {name: bindings.get(name) for name in VARIABLES}
        value = self.compiled.eval(data=data)
        if value.type().name() == "ERROR":  # activation.go: "expression '%v' resulted in error"
            detail = f"expression '{self.expression}' resulted in error: {value.value()}"
            raise CelError(detail)
        return value.plain_value()


@functools.lru_cache(maxsize=1024)
def compile_expression(expression: str, returns: Returns = Returns.ANY) -> Program:
    """Compile (cached): `compilation failed: ...` or `must evaluate to ...` as compile.go says."""
    with _LOCK:
        try:
            compiled = _env().compile(untyped(expression))
        except RuntimeError as err:
            raise CelError(f"compilation failed: {_issues(str(err))}") from None
    got = compiled.return_type().name()
    if returns is not Returns.ANY and got not in ("DYN", returns.value.upper()):
        raise CelError(f"must evaluate to {returns.value} but got {got.lower()}")
    return Program(expression, compiled)


def _issues(message: str) -> str:
    """The library's status text without its `INVALID_ARGUMENT: ` wrapper and trailer."""
    text = message.removeprefix("INVALID_ARGUMENT: ")
    return text.removesuffix("[INVALID_ARGUMENT]").rstrip()
