"""Kubernetes' typed CEL constructions as plain maps, so a standard CEL runtime can run them.

A MutatingAdmissionPolicy builds its result with types only the Kubernetes CEL environment
declares: `Object{metadata: Object.metadata{annotations: {...}}}` (an apply configuration,
typed from the matched resource's schema) and `JSONPatch{op: ..., path: ..., value: ...}`
(kubernetes/apiserver `pkg/admission/plugin/policy/mutating/patch/smd.go` and `json_patch.go`).
The result the server works with is the same JSON either way, so `untyped` rewrites each such
construction to a map literal with quoted field names before compiling:

    Object{metadata: Object.metadata{labels: {"a": "b"}}}  ->  {"metadata": {"labels": {"a": "b"}}}

Documented gap: field names inside these constructions are not checked against the schema
(the real server refuses an unknown field at compile time; here it is pruned on write).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

TYPE_NAMES = ("Object", "JSONPatch")
_TYPE = re.compile(r"(?<![\w.])(Object|JSONPatch)((?:\.\w+)*)\s*\{")
_STRING = re.compile(r"""[rRbB]{0,2}('''|\"\"\"|'|")""")
_FIELD = re.compile(r"\s*(\w+)\s*:")


@dataclass
class _Rewriter:
    """A single left-to-right pass; `stack` says, per open bracket, whether it is a typed brace."""

    text: str
    out: list[str] = field(default_factory=list)
    stack: list[bool] = field(default_factory=list)
    pos: int = 0

    def run(self) -> str:
        while self.pos < len(self.text):
            self._step()
        return "".join(self.out)

    def _step(self) -> None:
        text, pos = self.text, self.pos
        if (string := _STRING.match(text, pos)) and _starts_literal(text, pos):
            self._copy(_string_end(text, string.end(), string.group(1)))
        elif typed := _TYPE.match(text, pos):
            self.out.append("{")
            self.stack.append(True)
            self.pos = typed.end()
            self._field_name()
        elif text[pos] in "{[(":
            self.stack.append(False)
            self._copy(pos + 1)
        elif text[pos] in "}])":
            self.stack = self.stack[:-1]
            self._copy(pos + 1)
        elif text[pos] == "," and self.stack and self.stack[-1]:
            self._copy(pos + 1)
            self._field_name()
        else:
            self._copy(pos + 1)

    def _field_name(self) -> None:
        """Quote `name:` right after a typed brace or a comma inside one."""
        if found := _FIELD.match(self.text, self.pos):
            self.out.append(f'"{found.group(1)}":')
            self.pos = found.end()

    def _copy(self, end: int) -> None:
        self.out.append(self.text[self.pos : end])
        self.pos = end


def _starts_literal(text: str, pos: int) -> bool:
    """A prefix letter (r, b) only starts a literal when it is not the tail of an identifier."""
    return pos == 0 or not (text[pos - 1].isalnum() or text[pos - 1] == "_")


def _string_end(text: str, start: int, quote: str) -> int:
    """The index just past the literal's closing quote (backslash escapes skipped)."""
    pos = start
    while pos < len(text):
        if text.startswith(quote, pos):
            return pos + len(quote)
        pos += 2 if text[pos] == "\\" else 1
    return len(text)


def untyped(expression: str) -> str:
    """The expression with every `Object...{}` / `JSONPatch{}` construction as a map literal."""
    if not any(name in expression for name in TYPE_NAMES):
        return expression
    return _Rewriter(expression).run()
