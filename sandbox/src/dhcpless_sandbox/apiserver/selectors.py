"""Label and field selectors in their query-string form, parsed once into match predicates.

Grammar as in apimachinery `labels.Parse`: comma-separated requirements `k=v`, `k==v`, `k!=v`,
`k in (a,b)`, `k notin (a,b)`, `k`, `!k`, `k>n`, `k<n`. Note `!=` and `notin` also match
objects without the key, as the real server does. Bad syntax is a 400, never a silent "match all".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from dhcpless_sandbox.apiserver import names
from dhcpless_sandbox.apiserver.status import bad_request


class Op(StrEnum):
    EQUALS = "="
    NOT_EQUALS = "!="
    IN = "in"
    NOT_IN = "notin"
    EXISTS = "exists"
    DOES_NOT_EXIST = "!"
    GREATER = ">"
    LESS = "<"


@dataclass(frozen=True)
class Requirement:
    key: str
    op: Op
    values: frozenset[str] = frozenset()

    def matches(self, labels: Mapping[str, str]) -> bool:
        """Plain tests, no table of closures: a label-selected LIST runs this for every object
        of the kind (a host's claims among a 5,000-host fleet's: issue 28)."""
        op, value = self.op, labels.get(self.key)
        if op in _MEMBER:
            return value is not None and value in self.values
        if op in _NOT_MEMBER:
            return value is None or value not in self.values
        if op is Op.EXISTS or op is Op.DOES_NOT_EXIST:
            return (value is not None) is (op is Op.EXISTS)
        return value is not None and self._compare(value)

    def _compare(self, value: str) -> bool:
        number, bound = _int(value), int(next(iter(self.values)))
        if number is None:
            return False
        return number > bound if self.op is Op.GREATER else number < bound


_MEMBER: Final = frozenset({Op.EQUALS, Op.IN})
_NOT_MEMBER: Final = frozenset({Op.NOT_EQUALS, Op.NOT_IN})


def _int(text: str) -> int | None:
    return int(text) if re.fullmatch(r"-?\d+", text) else None


_KEY = r"[A-Za-z0-9][-A-Za-z0-9_./]*"
_VALUE = r"[-A-Za-z0-9_.]*"
_SET = re.compile(rf"^\s*({_KEY})\s+(in|notin)\s*\(([^)]*)\)\s*$")
_CMP = re.compile(rf"^\s*({_KEY})\s*(==|=|!=|>|<)\s*({_VALUE})\s*$")
_EXISTS = re.compile(rf"^\s*(!?)\s*({_KEY})\s*$")


def _split(selector: str) -> list[str]:
    """Split on commas that are not inside `( )`."""
    parts, depth, current = [], 0, ""
    for char in selector:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current]


def _requirement(text: str) -> Requirement:
    if m := _SET.match(text):
        values = frozenset(v.strip() for v in m.group(3).split(","))
        return _checked(Requirement(m.group(1), Op(m.group(2)), values))
    if m := _CMP.match(text):
        op = Op.EQUALS if m.group(2) == "==" else Op(m.group(2))
        if op in (Op.GREATER, Op.LESS) and _int(m.group(3)) is None:
            raise bad_request(f"unable to parse requirement: {text!r}: value must be an integer")
        return _checked(Requirement(m.group(1), op, frozenset({m.group(3)})))
    if m := _EXISTS.match(text):
        return _checked(Requirement(m.group(2), Op.DOES_NOT_EXIST if m.group(1) else Op.EXISTS))
    raise bad_request(f"unable to parse requirement: {text!r}")


def _checked(req: Requirement) -> Requirement:
    """The key and every value must be ones a label can have: apimachinery `pkg/labels`
    `NewRequirement` validates them (`validateLabelKey`, `validateLabelValue` with
    `IsValidLabelValue`) and the list is refused with 400, so a selector for a 64-character
    value is an error there and must be one here (issue 14, finding 3)."""
    errors = [_invalid("key", req.key, names.label_key(req.key))]
    for index, value in enumerate(sorted(req.values)):
        where = f"values[{index}][{req.key}]"
        errors.append(_invalid(where, value, names.label_value(value)))
    found = [e for e in errors if e]
    if found:
        joined = found[0] if len(found) == 1 else "[" + ", ".join(found) + "]"
        raise bad_request(f"unable to parse requirement: {joined}")
    return req


def _invalid(field: str, value: str, messages: list[str]) -> str:
    """`field.Invalid(...).Error()`, or "" when there is nothing to say."""
    return f'{field}: Invalid value: "{value}": {"; ".join(messages)}' if messages else ""


def parse_labels(selector: str) -> tuple[Requirement, ...]:
    """`labelSelector` query value -> requirements (all must match). Empty matches all."""
    if not selector.strip():
        return ()
    return tuple(_requirement(part) for part in _split(selector))


def labels_match(requirements: tuple[Requirement, ...], labels: Mapping[str, str]) -> bool:
    return all(r.matches(labels) for r in requirements)


@dataclass(frozen=True)
class FieldRequirement:
    path: str
    value: str
    negate: bool

    def matches(self, fields: Mapping[str, str]) -> bool:
        return (fields.get(self.path, "") == self.value) != self.negate


_FIELD = re.compile(r"^\s*([A-Za-z.]+)\s*(==|=|!=)\s*(.*?)\s*$")


def parse_fields(selector: str, supported: frozenset[str]) -> tuple[FieldRequirement, ...]:
    """`fieldSelector` -> requirements; an unsupported field is a 400 as on the real server."""
    out = []
    for part in _split(selector) if selector.strip() else []:
        m = _FIELD.match(part)
        if not m:
            raise bad_request(f"invalid selector: {selector!r}; can't understand {part!r}")
        if m.group(1) not in supported:
            raise bad_request(f"field label not supported: {m.group(1)}")
        out.append(FieldRequirement(m.group(1), m.group(3), m.group(2) == "!="))
    return tuple(out)


def fields_match(requirements: tuple[FieldRequirement, ...], fields: Mapping[str, str]) -> bool:
    return all(r.matches(fields) for r in requirements)
